#include "collector/sources/mad/inform_info.hpp"

#include <string>

#include "collector/sources/mad/mad_requests.hpp"

namespace rdmadiag::mad {

std::vector<uint8_t> encode_inform_info(const InformInfo& info) {
    std::vector<uint8_t> r(kInformInfoSize, 0);
    // GID (bytes 0..15) zero: the LID range selects the trap sources.
    put16(r, 16, info.lid_range_begin);
    put16(r, 18, info.lid_range_end);
    put8(r, 22, info.generic ? 1 : 0);
    put8(r, 23, info.subscribe ? 1 : 0);
    put16(r, 24, info.type);
    put16(r, 26, info.trap_number);
    put32(r, 28, (info.qpn & 0xffffff) << 8 | (info.resp_time_value & 0x1f));
    put8(r, 33, static_cast<uint8_t>(info.producer_type >> 16));
    put16(r, 34, static_cast<uint16_t>(info.producer_type));
    return r;
}

Result<InformInfo> decode_inform_info(Bytes r) {
    RDMADIAG_TRY(need_bytes(r, kInformInfoSize, "InformInfo"));
    InformInfo info;
    info.lid_range_begin = get16(r, 16);
    info.lid_range_end = get16(r, 18);
    info.generic = get8(r, 22) != 0;
    info.subscribe = get8(r, 23) != 0;
    info.type = get16(r, 24);
    info.trap_number = get16(r, 26);
    const uint32_t qpn_resp = get32(r, 28);
    info.qpn = qpn_resp >> 8;
    info.resp_time_value = static_cast<uint8_t>(qpn_resp & 0x1f);
    info.producer_type = get24(r, 33);
    return info;
}

MadRequest inform_info_request(uint16_t sm_lid, uint16_t trap_number, bool subscribe,
                               uint64_t sm_key) {
    InformInfo info;
    info.trap_number = trap_number;
    info.subscribe = subscribe;
    // SubnAdmSet takes the whole record: no component mask.
    return sa_request(sm_lid, Method::set, attr::inform_info, 0, encode_inform_info(info), sm_key);
}

}  // namespace rdmadiag::mad
