#include "collector/json/mr_state_json.hpp"

#include <cmath>
#include <stdexcept>

namespace rdmadiag {

namespace {

using nlohmann::json;

template <class E, class Parse>
E enum_from(const json& j, Parse parse, const char* what) {
    auto v = parse(j.get<std::string>());
    if (!v)
        throw std::invalid_argument(std::string("unknown ") + what + " \"" + j.get<std::string>() +
                                    "\"");
    return *v;
}

std::string time_to(TimePoint t) {
    return format_time(t);
}
TimePoint time_from(const json& j) {
    auto t = parse_time(j.get<std::string>());
    if (!t)
        throw std::invalid_argument("bad time \"" + j.get<std::string>() +
                                    "\": " + t.error().message);
    return *t;
}

double seconds_to(Duration d) {
    return to_seconds(d);
}
Duration seconds_from(const json& j) {
    double s = j.get<double>();
    if (!std::isfinite(s)) throw std::invalid_argument("duration is not finite");
    return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

}  // namespace

void to_json(json& j, const MrOwner& o) {
    j = json{{"name", o.name}};
    if (o.pid) j["pid"] = *o.pid;
}

void from_json(const json& j, MrOwner& o) {
    o.name = j.at("name").get<std::string>();
    o.pid = j.contains("pid") ? std::optional<uint32_t>(j.at("pid").get<uint32_t>()) : std::nullopt;
}

void to_json(json& j, const MrRecord& r) {
    j = json{{"device", r.device},
             {"mr", r.mr},
             {"owner", r.owner},
             {"transport", to_string(r.transport)},
             {"state", to_string(r.state)},
             {"state_since", time_to(r.state_since)},
             {"first_seen", time_to(r.first_seen)},
             {"last_seen", time_to(r.last_seen)},
             {"completions", r.completions},
             {"source", r.source},
             {"advice", r.advice}};
    if (r.key) j["key"] = *r.key;
    if (r.last_op) j["last_op"] = to_string(*r.last_op);
    if (r.last_status) j["last_status"] = to_string(*r.last_status);
    if (r.flagged_since) j["flagged_since"] = time_to(*r.flagged_since);
}

void from_json(const json& j, MrRecord& r) {
    r.device = j.at("device").get<std::string>();
    r.mr = j.at("mr").get<uint64_t>();
    r.key = j.contains("key") ? std::optional<uint32_t>(j.at("key").get<uint32_t>()) : std::nullopt;
    r.owner = j.at("owner").get<MrOwner>();
    r.transport = enum_from<Transport>(j.at("transport"), parse_transport, "transport");
    r.state = enum_from<MrState>(j.at("state"), parse_mr_state, "MR state");
    r.state_since = time_from(j.at("state_since"));
    r.first_seen = time_from(j.at("first_seen"));
    r.last_seen = time_from(j.at("last_seen"));
    r.last_op = j.contains("last_op")
                    ? std::optional<MrOp>(enum_from<MrOp>(j.at("last_op"), parse_mr_op, "MR op"))
                    : std::nullopt;
    r.last_status = j.contains("last_status")
                        ? std::optional<WcStatus>(enum_from<WcStatus>(
                              j.at("last_status"), parse_wc_status, "completion status"))
                        : std::nullopt;
    r.flagged_since = j.contains("flagged_since")
                          ? std::optional<TimePoint>(time_from(j.at("flagged_since")))
                          : std::nullopt;
    r.completions = j.value("completions", uint64_t{0});
    r.source = j.value("source", std::string());
    r.advice = j.value("advice", std::string());
}

void to_json(json& j, const MrDeviceHealth& d) {
    json by_state = json::object();
    for (const auto& [s, n] : d.by_state) by_state[std::string(to_string(s))] = n;
    json completions = json::array();
    for (const auto& c : d.completions) {
        completions.push_back(
            {{"op", to_string(c.op)}, {"status", to_string(c.status)}, {"count", c.count}});
    }
    json posted = json::object();
    for (const auto& [op, n] : d.posted) posted[std::string(to_string(op))] = n;
    j = json{{"device", d.device},
             {"by_state", by_state},
             {"completions", completions},
             {"posted", posted},
             {"bind_errors", d.bind_errors},
             {"entered_unknown", d.entered_unknown},
             {"entered_stuck", d.entered_stuck},
             {"recoveries", d.recoveries},
             {"recovery_seconds_total", seconds_to(d.recovery_time_total)},
             {"unknown_seconds_total", seconds_to(d.unknown_time_total)},
             {"duplicate_events", d.duplicate_events},
             {"late_events", d.late_events},
             {"failed_ops", d.failed_ops},
             {"ignored_while_stuck", d.ignored_while_stuck}};
}

void from_json(const json& j, MrDeviceHealth& d) {
    d = MrDeviceHealth{};
    d.device = j.at("device").get<std::string>();
    for (const auto& [k, v] : j.at("by_state").items()) {
        d.by_state[enum_from<MrState>(json(k), parse_mr_state, "MR state")] = v.get<uint64_t>();
    }
    for (const auto& c : j.at("completions")) {
        d.completions.push_back(MrCompletionCount{
            enum_from<MrOp>(c.at("op"), parse_mr_op, "MR op"),
            enum_from<WcStatus>(c.at("status"), parse_wc_status, "completion status"),
            c.at("count").get<uint64_t>()});
    }
    const json posted = j.value("posted", json::object());  // items() must not outlive it
    for (const auto& [k, v] : posted.items()) {
        d.posted[enum_from<MrOp>(json(k), parse_mr_op, "MR op")] = v.get<uint64_t>();
    }
    d.bind_errors = j.value("bind_errors", uint64_t{0});
    d.entered_unknown = j.value("entered_unknown", uint64_t{0});
    d.entered_stuck = j.value("entered_stuck", uint64_t{0});
    d.recoveries = j.value("recoveries", uint64_t{0});
    d.recovery_time_total = seconds_from(j.value("recovery_seconds_total", json(0.0)));
    d.unknown_time_total = seconds_from(j.value("unknown_seconds_total", json(0.0)));
    d.duplicate_events = j.value("duplicate_events", uint64_t{0});
    d.late_events = j.value("late_events", uint64_t{0});
    d.failed_ops = j.value("failed_ops", uint64_t{0});
    d.ignored_while_stuck = j.value("ignored_while_stuck", uint64_t{0});
}

void to_json(json& j, const MrRecovery& r) {
    j = json{{"device", r.device},
             {"mr", r.mr},
             {"owner", r.owner},
             {"from", to_string(r.from)},
             {"kind", to_string(r.kind)},
             {"flagged_since", time_to(r.flagged_since)},
             {"recovered", time_to(r.recovered)},
             {"seconds", seconds_to(r.recovered - r.flagged_since)}};
}

void from_json(const json& j, MrRecovery& r) {
    r.device = j.at("device").get<std::string>();
    r.mr = j.at("mr").get<uint64_t>();
    r.owner = j.at("owner").get<MrOwner>();
    r.from = enum_from<MrState>(j.at("from"), parse_mr_state, "MR state");
    r.kind = enum_from<MrRecoveryKind>(j.at("kind"), parse_mr_recovery_kind, "recovery kind");
    r.flagged_since = time_from(j.at("flagged_since"));
    r.recovered = time_from(j.at("recovered"));
}

void to_json(json& j, const MrHealth& h) {
    j = json{{"mrs", h.mrs},
             {"devices", h.devices},
             {"recoveries", h.recoveries},
             {"dropped_records", h.dropped_records}};
}

void from_json(const json& j, MrHealth& h) {
    h.mrs = j.value("mrs", json::array()).get<std::vector<MrRecord>>();
    h.devices = j.value("devices", json::array()).get<std::vector<MrDeviceHealth>>();
    h.recoveries = j.value("recoveries", json::array()).get<std::vector<MrRecovery>>();
    h.dropped_records = j.value("dropped_records", uint64_t{0});
}

Result<MrHealth> mr_health_from_json(const json& j) {
    try {
        return j.get<MrHealth>();
    } catch (const std::exception& e) {
        return make_error(std::string("MR health JSON: ") + e.what());
    }
}

}  // namespace rdmadiag
