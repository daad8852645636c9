#pragma once

#include <string>
#include <vector>

#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

std::string render_events_text(const std::vector<EventRecord>& events);
// One line per event, for --follow.
std::string render_event_line(const EventRecord& event);
codec::Json render_events_json(const std::vector<EventRecord>& events);

}  // namespace rdmadiag::cli::render
