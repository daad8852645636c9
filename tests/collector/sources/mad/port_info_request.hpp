#pragma once
// A LID-routed SubnGet(PortInfo) request for one port, as the sweep sends it: what the MAD
// engine's tests queue.

#include <cstdint>
#include <string>

#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/mad_header.hpp"

namespace rdmadiag::mad::test {

inline MadRequest port_info_request(uint16_t lid, uint8_t port) {
    MadRequest r;
    r.target = "lid " + std::to_string(lid);
    r.addr = MadAddress{lid, 0, 0, 0};
    r.mad = build_lid_smp({Method::get, attr::port_info, port, 0}, 0);
    return r;
}

}  // namespace rdmadiag::mad::test
