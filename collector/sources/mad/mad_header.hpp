#pragma once
// The 24-byte common MAD header (IBA 13.4.2) and the class layouts rdmadiag speaks: SMPs, LID
// routed and directed route (14.2.1), PMA GMPs (16.1) and SA MADs with their RMPP and SA headers
// (15.2.1). build_* make request bytes; parse_response checks a reply and says why it is unusable.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_bytes.hpp"

namespace rdmadiag::mad {

constexpr size_t kMadSize = 256;
constexpr size_t kSmpDataOffset = 64;
constexpr size_t kSmpDataSize = 64;
constexpr size_t kGmpDataOffset = 64;  // PMA: 24 header + 40 reserved
constexpr size_t kSaHeaderEnd = 56;    // SA: 24 header + 12 RMPP + 20 SA header
constexpr size_t kDrMaxHops = 63;

enum class MgmtClass : uint8_t {
    smi_lid = 0x01,
    sa = 0x03,
    pma = 0x04,
    smi_dr = 0x81,
};

enum class Method : uint8_t {
    get = 0x01,
    set = 0x02,
    report = 0x06,  // SA: an event a subscriber asked for (InformInfo), carrying a Notice
    get_response = 0x81,
    report_response = 0x86,
    get_table = 0x12,
    get_table_response = 0x92,
};

namespace attr {
constexpr uint16_t class_port_info = 0x0001;
constexpr uint16_t notice = 0x0002;       // common to every class (IBA 13.4.8.2)
constexpr uint16_t inform_info = 0x0003;  // common to every class (IBA 13.4.8.3)
constexpr uint16_t node_description = 0x0010;
constexpr uint16_t node_info = 0x0011;
constexpr uint16_t switch_info = 0x0012;
constexpr uint16_t guid_info = 0x0014;
constexpr uint16_t port_info = 0x0015;
constexpr uint16_t pkey_table = 0x0016;
// Mellanox's vendor-specific ExtendedPortInfo (SubnGet, modifier = port): FDR10.
constexpr uint16_t mlnx_ext_port_info = 0xff90;
// PMA
constexpr uint16_t port_counters = 0x0012;
constexpr uint16_t port_counters_ext = 0x001d;
// SA
constexpr uint16_t node_record = 0x0011;
constexpr uint16_t port_info_record = 0x0012;
constexpr uint16_t link_record = 0x0020;
constexpr uint16_t guid_info_record = 0x0030;
constexpr uint16_t pkey_table_record = 0x0033;
}  // namespace attr

constexpr uint32_t kGsiQkey = 0x80010000;

// A directed route: the out-port at each hop, starting from the sending port (IBA 14.2.2).
// An empty path addresses the local node's SMA.
using DrPath = std::vector<uint8_t>;

struct MadHeader {
    uint8_t base_version = 1;
    uint8_t mgmt_class = 0;
    uint8_t class_version = 1;
    uint8_t method = 0;
    uint16_t status = 0;     // for DR SMPs without the D bit
    bool direction = false;  // DR SMPs: set on responses
    uint8_t hop_pointer = 0;
    uint8_t hop_count = 0;
    uint64_t tid = 0;
    uint16_t attr_id = 0;
    uint32_t attr_mod = 0;
};

struct SmpRequest {
    Method method = Method::get;
    uint16_t attr_id = 0;
    uint32_t attr_mod = 0;
    uint64_t m_key = 0;
};

std::array<uint8_t, kMadSize> build_lid_smp(const SmpRequest& req, uint64_t tid);
// Fails when the path is longer than 63 hops.
Result<std::array<uint8_t, kMadSize>> build_dr_smp(const SmpRequest& req, const DrPath& path,
                                                   uint64_t tid);
// PMA Get: `data` (up to 192 bytes) is copied to the attribute area (PortSelect, ...).
std::array<uint8_t, kMadSize> build_pma_get(uint16_t attr_id, uint32_t attr_mod, Bytes data,
                                            uint64_t tid);
// SA Get/GetTable with a component mask and a template record; sm_key 0 is untrusted.
std::array<uint8_t, kMadSize> build_sa_query(Method method, uint16_t attr_id, uint64_t comp_mask,
                                             Bytes record_template, uint64_t sm_key, uint64_t tid);

Result<MadHeader> parse_header(Bytes mad);
// Fails, saying what needs how many bytes, when `data` is shorter than `size`.
Result<void> need_bytes(Bytes data, size_t size, std::string_view what);
std::string describe_status(uint16_t status);

// Checks a response: long enough, a response method, and a success status. DR SMP responses are
// checked without the D bit. Returns the header.
Result<MadHeader> check_response(Bytes mad);

// The attribute data of an SMP (LID routed or DR) response: 64 bytes.
Result<Bytes> smp_data(Bytes mad);
// The attribute data of a PMA response: 192 bytes.
Result<Bytes> pma_data(Bytes mad);

// The records of an SA (Get or GetTable) response, already reassembled from RMPP segments.
// The spacing comes from AttributeOffset (8-byte units); each record is at least min_size bytes.
Result<std::vector<Bytes>> sa_records(Bytes mad, size_t min_size);

}  // namespace rdmadiag::mad
