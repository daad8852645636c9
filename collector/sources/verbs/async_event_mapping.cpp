#include "collector/sources/verbs/async_event_mapping.hpp"

#include <array>

namespace rdmadiag::verbs {

namespace {

// ibv_event_type values are ABI: AsyncEventType lists them in the same order
// (ibverbs_backend.cpp checks that against <infiniband/verbs.h> at compile time).
constexpr int kLastKnownCode = static_cast<int>(AsyncEventType::wq_fatal);

// IBA PortPhysicalState names, as the kernel's sysfs phys_state file spells them.
constexpr std::array<std::string_view, 8> kPhysStateNames = {"",
                                                             "Sleep",
                                                             "Polling",
                                                             "Disabled",
                                                             "PortConfigurationTraining",
                                                             "LinkUp",
                                                             "LinkErrorRecovery",
                                                             "Phy Test"};

}  // namespace

AsyncEventType async_event_type_from_code(int code) {
    if (code < 0 || code > kLastKnownCode) return AsyncEventType::unknown;
    return static_cast<AsyncEventType>(code);
}

AsyncEvent map_async_event(std::string_view device, const RawAsyncEvent& raw) {
    AsyncEvent ev;
    ev.device = std::string(device);
    ev.type = async_event_type_from_code(raw.type);
    if (ev.type == AsyncEventType::unknown || ev.type == AsyncEventType::device_fatal) return ev;
    if (is_port_event(ev.type)) {
        ev.port = raw.number;
    } else {
        ev.element = raw.number;
    }
    return ev;
}

bool event_rereads_port(AsyncEventType type) {
    switch (type) {
        case AsyncEventType::port_active:
        case AsyncEventType::port_err:
        case AsyncEventType::lid_change:
        case AsyncEventType::sm_change:
        case AsyncEventType::client_reregister:
        case AsyncEventType::gid_change:
        case AsyncEventType::pkey_change:
            return true;
        default:
            return false;
    }
}

bool event_rereads_pkeys(AsyncEventType type) {
    // After a re-registration the SM may have programmed a different table; a port coming back
    // up may carry one too.
    return type == AsyncEventType::pkey_change || type == AsyncEventType::client_reregister ||
           type == AsyncEventType::port_active;
}

bool event_loses_device(AsyncEventType type) {
    return type == AsyncEventType::device_fatal;
}

std::optional<std::string> port_rate_text(uint8_t active_width, uint8_t active_speed) {
    const int lanes = static_cast<int>(link_width_lanes(active_width));
    if (lanes == 0) return std::nullopt;
    // Tenths of Gb/s per lane; anything unknown counts as SDR, as the kernel does.
    int lane_rate = 25;
    std::string_view name = "SDR";
    switch (active_speed) {
        case 2:
            lane_rate = 50;
            name = "DDR";
            break;
        case 4:
            lane_rate = 100;
            name = "QDR";
            break;
        case 8:
            lane_rate = 100;
            name = "FDR10";
            break;
        case 16:
            lane_rate = 140;
            name = "FDR";
            break;
        case 32:
            lane_rate = 250;
            name = "EDR";
            break;
        case 64:
            lane_rate = 500;
            name = "HDR";
            break;
        case 128:
            lane_rate = 1000;
            name = "NDR";
            break;
        default:
            break;
    }
    const int rate = lane_rate * lanes;
    std::string text = std::to_string(rate / 10);
    if (rate % 10 != 0) text += ".5";
    text += " Gb/sec (" + std::to_string(lanes) + "X " + std::string(name) + ")";
    return text;
}

PortStateSample port_state_sample(const PortRef& port, const VerbsPortAttributes& attr) {
    PortStateSample s;
    s.port = port;
    if (attr.state <= static_cast<uint8_t>(PortState::active_defer)) {
        s.state = static_cast<PortState>(attr.state);
    }
    s.phys_state = attr.phys_state;
    if (attr.phys_state > 0 && attr.phys_state < kPhysStateNames.size()) {
        s.phys_state_text = std::string(kPhysStateNames[attr.phys_state]);
    }
    switch (attr.link_layer) {
        case 1:
            s.link_layer = LinkLayer::infiniband;
            break;
        case 2:
            s.link_layer = LinkLayer::ethernet;
            break;
        default:
            s.link_layer = LinkLayer::unknown;
            break;
    }
    // Reported as read, like sysfs does: on Ethernet links they are 0.
    s.lid = attr.lid;
    s.sm_lid = attr.sm_lid;
    s.lmc = attr.lmc;
    s.rate = port_rate_text(attr.active_width, attr.active_speed);
    s.cap_mask = attr.port_cap_flags;
    return s;
}

}  // namespace rdmadiag::verbs
