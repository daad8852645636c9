#include "collector/sources/mad/sa_records.hpp"

#include "collector/sources/mad/mad_header.hpp"

namespace rdmadiag::mad {

Result<NodeRecord> decode_node_record(Bytes r) {
    RDMADIAG_TRY(need_bytes(r, kNodeRecordSize, "NodeRecord"));
    NodeRecord rec;
    rec.lid = get16(r, 0);
    auto info = decode_node_info(r.subspan(4, kNodeInfoSize));
    if (!info)
        return make_error("NodeRecord for LID " + std::to_string(rec.lid) + ": " +
                          info.error().message);
    rec.info = *info;
    rec.description = decode_node_description(r.subspan(44, 64)).value_or("");
    return rec;
}

Result<PortInfoRecord> decode_port_info_record(Bytes r) {
    RDMADIAG_TRY(need_bytes(r, kPortInfoRecordSize, "PortInfoRecord"));
    PortInfoRecord rec;
    rec.endport_lid = get16(r, 0);
    rec.port_num = get8(r, 2);
    rec.info = RDMADIAG_TRY(decode_port_info(r.subspan(4, kPortInfoSize)));
    return rec;
}

Result<PKeyTableRecord> decode_pkey_table_record(Bytes r) {
    RDMADIAG_TRY(need_bytes(r, kPKeyTableRecordSize, "PKeyTableRecord"));
    PKeyTableRecord rec;
    rec.lid = get16(r, 0);
    rec.block = get16(r, 2);
    rec.port_num = get8(r, 4);
    rec.keys = RDMADIAG_TRY(decode_pkey_block(r.subspan(8, kPKeyTableSize)));
    return rec;
}

Result<LinkRecord> decode_link_record(Bytes r) {
    RDMADIAG_TRY(need_bytes(r, kLinkRecordSize, "LinkRecord"));
    return LinkRecord{get16(r, 0), get8(r, 2), get8(r, 3), get16(r, 4)};
}

Result<GuidInfoRecord> decode_guid_info_record(Bytes r) {
    RDMADIAG_TRY(need_bytes(r, kGuidInfoRecordSize, "GUIDInfoRecord"));
    GuidInfoRecord rec;
    rec.lid = get16(r, 0);
    rec.block = get8(r, 2);
    rec.guids = RDMADIAG_TRY(decode_guid_block(r.subspan(8, kGuidInfoSize)));
    return rec;
}

std::vector<uint8_t> pkey_table_record_template(uint16_t lid, uint16_t block, uint8_t port) {
    std::vector<uint8_t> t(kPKeyTableRecordSize, 0);
    put16(t, 0, lid);
    put16(t, 2, block);
    put8(t, 4, port);
    return t;
}

std::vector<uint8_t> port_info_record_template(uint16_t lid, uint8_t port) {
    std::vector<uint8_t> t(kPortInfoRecordSize, 0);
    put16(t, 0, lid);
    put8(t, 2, port);
    return t;
}

std::vector<uint8_t> guid_info_record_template(uint16_t lid, uint8_t block) {
    std::vector<uint8_t> t(kGuidInfoRecordSize, 0);
    put16(t, 0, lid);
    put8(t, 2, block);
    return t;
}

}  // namespace rdmadiag::mad
