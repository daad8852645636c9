#include "collector/sources/mad/pma_attributes.hpp"

#include <string>

#include "collector/model/pma_counters.hpp"

namespace rdmadiag::mad {

namespace {

uint64_t field_value(Bytes d, const PmaCounterInfo& f) {
    switch (f.bits) {
        case 64:
            return get64(d, f.offset);
        case 32:
            return get32(d, f.offset);
        case 16:
            return get16(d, f.offset);
        case 8:
            return get8(d, f.offset);
        default:
            return get_bits(d, f.offset, f.shift, f.bits);
    }
}

// The attribute's fields the reply has, as the counter table lays them out; the caller checked
// the length.
template <class Present>
std::vector<PmaCounter> decode_fields(Bytes d, PmaAttribute attribute, Present present) {
    std::vector<PmaCounter> out;
    for (const auto& f : pma_counters_of(attribute)) {
        if (present(f.condition)) out.push_back({f.name, field_value(d, f), f.bits});
    }
    return out;
}

}  // namespace

Result<PmaClassPortInfo> decode_pma_class_port_info(Bytes d) {
    if (d.size() < 8)
        return make_error("ClassPortInfo needs 8 bytes, got " + std::to_string(d.size()));
    PmaClassPortInfo c;
    c.base_version = get8(d, 0);
    c.class_version = get8(d, 1);
    c.capability_mask = get16(d, 2);
    uint32_t word = get32(d, 4);
    c.capability_mask2 = word >> 5;
    c.resp_time_value = static_cast<uint8_t>(word & 0x1f);
    return c;
}

Result<std::vector<PmaCounter>> decode_port_counters(Bytes d, bool xmit_wait) {
    if (d.size() < 44)
        return make_error("PortCounters needs 44 bytes, got " + std::to_string(d.size()));
    return decode_fields(d, PmaAttribute::port_counters, [xmit_wait](PmaCondition c) {
        return c != PmaCondition::xmit_wait || xmit_wait;
    });
}

Result<std::vector<PmaCounter>> decode_port_counters_ext(Bytes d, bool no_ietf) {
    if (d.size() < 72) {
        return make_error("PortCountersExtended needs 72 bytes, got " + std::to_string(d.size()));
    }
    return decode_fields(d, PmaAttribute::port_counters_ext,
                         [no_ietf](PmaCondition c) { return c != PmaCondition::ietf || !no_ietf; });
}

std::vector<uint8_t> port_select_payload(uint8_t port) {
    std::vector<uint8_t> data(8, 0);
    data[1] = port;
    return data;
}

}  // namespace rdmadiag::mad
