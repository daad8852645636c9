#include "collector/sources/mad/pma_attributes.hpp"

#include <string>

namespace rdmadiag::mad {

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
    // Names are the kernel's sysfs counters/ file names, so both sources agree.
    std::vector<PmaCounter> c{
        {"symbol_error", get16(d, 4), 16},
        {"link_error_recovery", get8(d, 6), 8},
        {"link_downed", get8(d, 7), 8},
        {"port_rcv_errors", get16(d, 8), 16},
        {"port_rcv_remote_physical_errors", get16(d, 10), 16},
        {"port_rcv_switch_relay_errors", get16(d, 12), 16},
        {"port_xmit_discards", get16(d, 14), 16},
        {"port_xmit_constraint_errors", get8(d, 16), 8},
        {"port_rcv_constraint_errors", get8(d, 17), 8},
        {"local_link_integrity_errors", get_bits(d, 19, 4, 4), 4},
        {"excessive_buffer_overrun_errors", get_bits(d, 19, 0, 4), 4},
        {"VL15_dropped", get16(d, 22), 16},
        {"port_xmit_data", get32(d, 24), 32},
        {"port_rcv_data", get32(d, 28), 32},
        {"port_xmit_packets", get32(d, 32), 32},
        {"port_rcv_packets", get32(d, 36), 32},
    };
    if (xmit_wait) c.push_back({"port_xmit_wait", get32(d, 40), 32});
    return c;
}

Result<std::vector<PmaCounter>> decode_port_counters_ext(Bytes d, bool no_ietf) {
    if (d.size() < 72) {
        return make_error("PortCountersExtended needs 72 bytes, got " + std::to_string(d.size()));
    }
    std::vector<PmaCounter> c{
        {"port_xmit_data", get64(d, 8), 64},
        {"port_rcv_data", get64(d, 16), 64},
        {"port_xmit_packets", get64(d, 24), 64},
        {"port_rcv_packets", get64(d, 32), 64},
    };
    if (!no_ietf) {
        c.push_back({"unicast_xmit_packets", get64(d, 40), 64});
        c.push_back({"unicast_rcv_packets", get64(d, 48), 64});
        c.push_back({"multicast_xmit_packets", get64(d, 56), 64});
        c.push_back({"multicast_rcv_packets", get64(d, 64), 64});
    }
    return c;
}

std::vector<uint8_t> port_select_payload(uint8_t port) {
    std::vector<uint8_t> data(8, 0);
    data[1] = port;
    return data;
}

}  // namespace rdmadiag::mad
