#include "cli/render/events_render.hpp"

#include "cli/render/format.hpp"
#include "cli/render/table.hpp"
#include "collector/json/snapshot_json.hpp"

namespace rdmadiag::cli::render {

namespace {
std::vector<std::string> event_cells(const EventRecord& e) {
    return {format_time(e.time),
            e.source,
            e.event.device,
            e.event.port ? std::to_string(*e.event.port) : "-",
            std::string(to_string(e.event.type)),
            e.event.element ? std::to_string(*e.event.element) : "-"};
}
}  // namespace

std::string render_events_text(const std::vector<EventRecord>& events) {
    if (events.empty()) return "No async events seen.\n";
    Table t({{"TIME"}, {"SOURCE"}, {"DEVICE"}, {"PORT", Align::right}, {"EVENT"}, {"ELEMENT"}});
    for (const auto& e : events) t.add_row(event_cells(e));
    return t.render();
}

std::string render_event_line(const EventRecord& e) {
    const auto c = event_cells(e);
    std::string line;
    for (size_t i = 0; i < c.size(); ++i) line += (i ? "  " : "") + c[i];
    return line + "\n";
}

codec::Json render_events_json(const std::vector<EventRecord>& events) {
    return {{"version", 1}, {"events", events}};
}

}  // namespace rdmadiag::cli::render
