#pragma once
// Decoders for the SA records rdmadiag asks for (IBA 15.2.5): NodeRecord to discover the subnet,
// LinkRecord for which port each port is cabled to, PKeyTableRecord for the SM's intended P_Key
// tables (opensm answers that one only to requests carrying its SM_Key), PortInfoRecord and
// GUIDInfoRecord for the SM's view of a port's GIDs (its subnet prefix and GUIDs).

#include <cstdint>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_bytes.hpp"
#include "collector/sources/mad/smp_attributes.hpp"

namespace rdmadiag::mad {

struct NodeRecord {
    uint16_t lid = 0;
    NodeInfo info;
    std::string description;
    bool operator==(const NodeRecord&) const = default;
};

struct PortInfoRecord {
    uint16_t endport_lid = 0;
    uint8_t port_num = 0;
    PortInfo info;
    bool operator==(const PortInfoRecord&) const = default;
};

// One direction of a link: FromLID and FromPort (a switch's LID and external port, or a CA
// port's LID and number), ToPort, ToLID.
struct LinkRecord {
    uint16_t from_lid = 0;
    uint8_t from_port = 0;
    uint8_t to_port = 0;
    uint16_t to_lid = 0;
    bool operator==(const LinkRecord&) const = default;
};

struct PKeyTableRecord {
    uint16_t lid = 0;
    uint16_t block = 0;
    uint8_t port_num = 0;
    std::vector<uint16_t> keys;  // 32
    bool operator==(const PKeyTableRecord&) const = default;
};

// A port's GUIDs as the SM assigned them, 8 per block (IBA 15.2.5.18): LID, BlockNum, 5 reserved
// bytes, then the block as GUIDInfo lays it out.
struct GuidInfoRecord {
    uint16_t lid = 0;
    uint8_t block = 0;
    GuidBlock guids{};
    bool operator==(const GuidInfoRecord&) const = default;
};

constexpr size_t kNodeRecordSize = 108;
constexpr size_t kPortInfoRecordSize = 68;
constexpr size_t kPKeyTableRecordSize = 72;
constexpr size_t kGuidInfoRecordSize = 72;
constexpr size_t kLinkRecordSize = 6;  // the fields above; the SA spaces records by 8

// PKeyTableRecord component mask bits: LID, BlockNum, PortNum.
constexpr uint64_t kPKeyRecLid = 1u << 0;
constexpr uint64_t kPKeyRecBlock = 1u << 1;
constexpr uint64_t kPKeyRecPort = 1u << 2;
// PortInfoRecord component mask bits: EndportLID, PortNum.
constexpr uint64_t kPortInfoRecLid = 1u << 0;
constexpr uint64_t kPortInfoRecPort = 1u << 1;
// GUIDInfoRecord component mask bits: LID, BlockNum.
constexpr uint64_t kGuidRecLid = 1u << 0;
constexpr uint64_t kGuidRecBlock = 1u << 1;

Result<NodeRecord> decode_node_record(Bytes record);
Result<PortInfoRecord> decode_port_info_record(Bytes record);
Result<PKeyTableRecord> decode_pkey_table_record(Bytes record);
Result<LinkRecord> decode_link_record(Bytes record);
Result<GuidInfoRecord> decode_guid_info_record(Bytes record);

// A PKeyTableRecord template selecting one LID (all blocks and ports when the mask says so).
std::vector<uint8_t> pkey_table_record_template(uint16_t lid, uint16_t block, uint8_t port);
// A PortInfoRecord template naming one port: a CA's port by its LID, a switch's port 0 by the
// switch's LID and port 0.
std::vector<uint8_t> port_info_record_template(uint16_t lid, uint8_t port);
// A GUIDInfoRecord template naming one block of the port at `lid`.
std::vector<uint8_t> guid_info_record_template(uint16_t lid, uint8_t block);

}  // namespace rdmadiag::mad
