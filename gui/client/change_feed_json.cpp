#include "gui/client/change_feed_json.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"
#include "collector/json/pkey_diff_json.hpp"
#include "collector/json/snapshot_json.hpp"

namespace rdmadiag::gui::client {

namespace {

using codec::get_opt;
using codec::get_time;
using codec::get_to;
using json = codec::Json;

// The feed's event totals are written as /api/v1/events writes them: {device, port, type, count}.
EventTotal event_total_from_json(const json& j) {
    EventTotal t;
    get_to(j, "device", t.device);
    get_opt(j, "port", t.port);
    std::string type;
    get_to(j, "type", type);
    t.type = parse_async_event_type(type).value_or(AsyncEventType::unknown);
    get_to(j, "count", t.count);
    return t;
}

Result<json> parse_object(std::string_view text, std::string_view what) {
    auto j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return make_error("not valid JSON");
    if (!j.is_object()) return make_error(std::string(what) + " is not a JSON object");
    return j;
}

}  // namespace

Result<models::SnapshotDelta> parse_snapshot_delta(std::string_view text) {
    const json j = RDMADIAG_TRY(parse_object(text, "the change feed's answer"));
    try {
        models::SnapshotDelta d;
        codec::get_required(j, "instance", d.instance);
        codec::get_required(j, "sequence", d.sequence);
        get_time(j, "time", d.time);
        get_to(j, "full", d.full);
        get_to(j, "devices", d.devices);
        get_opt(j, "device_names", d.device_names);
        get_opt(j, "sources", d.sources);
        get_opt(j, "findings", d.findings);
        get_opt(j, "finding_history", d.finding_history);
        get_opt(j, "events", d.events);
        get_opt(j, "errors", d.errors);
        get_opt(j, "mrs", d.mrs);
        get_opt(j, "pkey_changes", d.pkey_changes);
        if (auto it = j.find("event_totals"); it != j.end() && it->is_array()) {
            d.event_totals.emplace();
            for (const auto& t : *it) d.event_totals->push_back(event_total_from_json(t));
        }
        return d;
    } catch (const std::exception& e) {
        return make_error(std::string("malformed change feed: ") + e.what());
    }
}

Result<PortCounters> parse_port_counters(std::string_view text, const PortRef& port) {
    const json j = RDMADIAG_TRY(parse_object(text, "the counters answer"));
    try {
        PortCounters out{port, {}, {}};
        get_time(j, "time", out.time);
        const auto it = j.find("ports");
        if (it == j.end() || !it->is_array()) return make_error("the counters answer has no ports");
        for (const auto& p : *it) {
            PortRef ref;
            codec::get_required(p, "device", ref.device);
            codec::get_required(p, "port", ref.port);
            if (ref != port) continue;
            get_to(p, "counters", out.counters);
            return out;
        }
        return make_error("the daemon has no port " + port.to_string());
    } catch (const std::exception& e) {
        return make_error(std::string("malformed counters answer: ") + e.what());
    }
}

}  // namespace rdmadiag::gui::client
