#pragma once
// A port's PMA for tests: answers ClassPortInfo, PortCounters and PortCountersExtended from
// counter values named as sysfs counters/ names them, each packed into its IBA 16.1.3 field at
// that field's width (the 32-bit data and packet counters of PortCounters stop at their maximum,
// as a PMA's do). Used with AnsweringTransport.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/pma_attributes.hpp"

namespace rdmadiag::mad::test {

struct PmaPort {
    std::map<std::string, uint64_t> values;
    uint16_t capability_mask = kPmaExtendedWidth | kPmaXmitWait;
    uint8_t port_select = 0;  // the PortSelect of the last request
    unsigned asked = 0;

    uint64_t v(const std::string& name) const {
        auto it = values.find(name);
        return it == values.end() ? 0 : it->second;
    }
    template <class T>
    T sat(const std::string& name) const {
        return static_cast<T>(std::min<uint64_t>(v(name), std::numeric_limits<T>::max()));
    }

    // The attribute data answering `request`.
    std::optional<std::vector<uint8_t>> answer(Bytes request) {
        ++asked;
        std::vector<uint8_t> d(192, 0);
        const uint16_t attr_id = get16(request, 16);
        port_select = request[kGmpDataOffset + 1];
        d[1] = port_select;
        if (attr_id == attr::class_port_info) {
            d[0] = 1, d[1] = 1;
            put16(d, 2, capability_mask);
        } else if (attr_id == attr::port_counters) {
            put16(d, 4, sat<uint16_t>("symbol_error"));
            d[6] = sat<uint8_t>("link_error_recovery");
            d[7] = sat<uint8_t>("link_downed");
            put16(d, 8, sat<uint16_t>("port_rcv_errors"));
            put16(d, 10, sat<uint16_t>("port_rcv_remote_physical_errors"));
            put16(d, 12, sat<uint16_t>("port_rcv_switch_relay_errors"));
            put16(d, 14, sat<uint16_t>("port_xmit_discards"));
            d[16] = sat<uint8_t>("port_xmit_constraint_errors");
            d[17] = sat<uint8_t>("port_rcv_constraint_errors");
            d[19] =
                static_cast<uint8_t>(std::min<uint64_t>(v("local_link_integrity_errors"), 15) << 4 |
                                     std::min<uint64_t>(v("excessive_buffer_overrun_errors"), 15));
            put16(d, 22, sat<uint16_t>("VL15_dropped"));
            put32(d, 24, sat<uint32_t>("port_xmit_data"));
            put32(d, 28, sat<uint32_t>("port_rcv_data"));
            put32(d, 32, sat<uint32_t>("port_xmit_packets"));
            put32(d, 36, sat<uint32_t>("port_rcv_packets"));
            put32(d, 40, sat<uint32_t>("port_xmit_wait"));
        } else if (attr_id == attr::port_counters_ext) {
            put64(d, 8, v("port_xmit_data"));
            put64(d, 16, v("port_rcv_data"));
            put64(d, 24, v("port_xmit_packets"));
            put64(d, 32, v("port_rcv_packets"));
            if (capability_mask & kPmaExtendedWidth) {
                put64(d, 40, v("unicast_xmit_packets"));
                put64(d, 48, v("unicast_rcv_packets"));
                put64(d, 56, v("multicast_xmit_packets"));
                put64(d, 64, v("multicast_rcv_packets"));
            }
        } else {
            return std::nullopt;
        }
        return d;
    }
};

}  // namespace rdmadiag::mad::test
