#include "collector/engine/events/port_event_refresh.hpp"

namespace rdmadiag::engine::events {

bool refreshes_port(AsyncEventType type) {
    // Every port event but PKEY_CHANGE, which the P_Key views answer.
    return is_port_event(type) && type != AsyncEventType::pkey_change;
}

void PortEventRefresh::observe(const Observation& obs, EngineContext& ctx) {
    const auto* event = std::get_if<AsyncEvent>(&obs.body);
    if (event == nullptr || !refreshes_port(event->type)) return;
    // Port 0: every port of the device (an event the kernel did not tie to one port).
    ctx.request_refresh(PortRef{event->device, event->port.value_or(0)});
}

}  // namespace rdmadiag::engine::events
