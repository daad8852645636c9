#pragma once
// Parsers for the value files under /sys/class/infiniband, exactly as the kernel prints them
// (drivers/infiniband/core/sysfs.c). Each takes the file's text (with or without its one trailing
// newline) and returns the value or an error that quotes what it found. They never open files.
//
// A file's text may end with one '\n'; anything else after the value (spaces, a second line,
// junk) is an error, so a truncated or corrupted read is never mistaken for a value.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/model/gid.hpp"
#include "collector/model/rdma_enums.hpp"

namespace rdmadiag::sysfs {

// Longest value text accepted by the generic text parser; sysfs files are at most a page, and
// none of the attributes read here is legitimately longer.
constexpr size_t kMaxTextValue = 256;
// node_desc is printed with "%.64s".
constexpr size_t kMaxNodeDesc = 64;

// The value with its single trailing newline removed; an error when the text is empty, has more
// than one line, or ends in whitespace.
Result<std::string_view> value_line(std::string_view text);

// "4: ACTIVE" -> PortState::active. The number and the name must agree.
Result<PortState> parse_port_state(std::string_view text);

// "5: LinkUp" -> {5, "LinkUp"}. Unknown codes print "<unknown>" and are accepted as such.
struct PhysState {
    uint8_t code = 0;
    std::string name;
    bool operator==(const PhysState&) const = default;
};
Result<PhysState> parse_phys_state(std::string_view text);

// lid and sm_lid: "0x%x" (32 bits since the kernel learned OPA's 32-bit LIDs).
Result<uint32_t> parse_lid(std::string_view text);

// lid_mask_count: "%d", 0..7 for InfiniBand (LMC is 3 bits); up to 255 accepted.
Result<uint8_t> parse_lid_mask_count(std::string_view text);

// "InfiniBand", "Ethernet" or "Unknown".
Result<LinkLayer> parse_link_layer(std::string_view text);

// "100 Gb/sec (4X EDR)", "2.5 Gb/sec (1X)", "10 Gb/sec (4X)" (SDR has no speed name).
struct LinkRate {
    uint32_t deci_gbps = 0;  // 1000 = 100 Gb/s, 25 = 2.5 Gb/s
    uint8_t width = 0;       // lanes: 1, 2, 4, 8, 12
    std::string speed;       // "EDR", "" for SDR
    bool operator==(const LinkRate&) const = default;
};
Result<LinkRate> parse_rate(std::string_view text);

// cap_mask: "0x%08x".
Result<uint32_t> parse_cap_mask(std::string_view text);

// node_type: "1: CA", "2: switch", "3: router", "4: RNIC", "5: usNIC", "6: usNIC UDP".
struct NodeType {
    uint8_t code = 0;
    std::string name;
    bool operator==(const NodeType&) const = default;
};
Result<NodeType> parse_node_type(std::string_view text);

// node_guid, sys_image_guid: "0002:c903:0000:1234" (four groups of four hex digits).
Result<uint64_t> parse_guid(std::string_view text);

// fw_ver, board_id, hca_type: one non-empty printable line of at most kMaxTextValue bytes.
Result<std::string> parse_text_attribute(std::string_view text);

// node_desc: one printable line of at most 64 bytes; spaces are part of the value.
Result<std::string> parse_node_desc(std::string_view text);

// pkeys/N: "0x%04x".
Result<uint16_t> parse_pkey_entry(std::string_view text);

// gids/N: "%pI6", eight groups of four hex digits: "fe80:0000:0000:0000:0002:c903:0000:1235".
using Gid = ::rdmadiag::Gid;
Result<Gid> parse_gid(std::string_view text);
// gid_attrs/types/N: "IB/RoCE v1" (the type IB and RoCE v1 share: read on a RoCE port, RoCE v1)
// or "RoCE v2".
Result<GidType> parse_gid_attr_type(std::string_view text);
// gid_attrs/ndevs/N: the name of the netdev the GID belongs to.
Result<std::string> parse_gid_attr_ndev(std::string_view text);

// counters/* ("%u" / "%llu", or "N/A (no PMA)" when the device has no PMA) and hw_counters/*
// ("%llu"). Decimal, no sign, no leading '+', at most 64 bits.
Result<uint64_t> parse_counter(std::string_view text);

// True when a counters/ file says the device has no performance management agent.
bool is_no_pma(std::string_view text);

// What a counter file says: a value, or that the kernel has none to give. Kernels from 2.6 to 5.x
// print "N/A (no PMA)" in a counters/ file when the device has no process_mad (iWARP, usNIC) and,
// from 4.5 on, also when the PMA query fails (a virtual function, firmware that does not answer);
// that text is the only "not available" the RDMA core's sysfs writes. Later kernels fail the
// read() instead (is_unavailable_read).
struct CounterReading {
    std::optional<uint64_t> value;  // nullopt: not available
    bool operator==(const CounterReading&) const = default;
};
Result<CounterReading> parse_counter_reading(std::string_view text);

// Whether a counters/ file whose read() failed with `code` is "not available" rather than a
// failure: kernels that no longer print "N/A (no PMA)" return get_perf_mad's error, ENOSYS
// without process_mad and EINVAL when the PMA does not answer.
bool is_unavailable_read(int code);

// A table file name ("17" under pkeys/ or gids/) as its index; an error for anything else.
Result<uint32_t> parse_table_index(std::string_view name);

}  // namespace rdmadiag::sysfs
