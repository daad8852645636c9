#pragma once
// Pure translations from what libibverbs reports to observations: async events, port attributes
// and P_Key reads. No device needed; tested from plain values.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "collector/model/observation.hpp"
#include "collector/sources/verbs/verbs_backend.hpp"

namespace rdmadiag::verbs {

// ibv_event_type code -> type; codes this build does not know map to AsyncEventType::unknown.
AsyncEventType async_event_type_from_code(int code);

// The observation for one event: port for port events, element number for QP/CQ/SRQ/WQ
// events, neither for DEVICE_FATAL or an unknown code.
AsyncEvent map_async_event(std::string_view device, const RawAsyncEvent& raw);

// Whether an event means the port's attributes (state, LID, SM, GIDs) should be read again.
bool event_rereads_port(AsyncEventType type);
// Whether an event means the port's P_Key table should be read again.
bool event_rereads_pkeys(AsyncEventType type);
// Whether the device context is lost and must be reopened.
bool event_loses_device(AsyncEventType type);

// The text sysfs prints in ports/N/rate for the same width and speed ("100 Gb/sec (4X EDR)"),
// or nullopt for a width the kernel would reject.
std::optional<std::string> port_rate_text(uint8_t active_width, uint8_t active_speed);

PortStateSample port_state_sample(const PortRef& port, const VerbsPortAttributes& attr);

}  // namespace rdmadiag::verbs
