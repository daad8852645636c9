#include "collector/json/mr_state_json.hpp"

#include <cmath>

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"

namespace rdmadiag {

using codec::enum_from;
using codec::get_opt;
using codec::get_opt_time;
using codec::get_required;
using codec::get_time;
using codec::get_to;
using codec::in_field;
using codec::JsonDecodeError;
using codec::put_opt;
using codec::time_from;
using codec::time_json;
using json = codec::Json;

namespace {

double seconds_json(Duration d) {
    return to_seconds(d);
}

Duration seconds_from(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return Duration::zero();
    double s = it->get<double>();
    if (!std::isfinite(s)) throw JsonDecodeError(std::string(key) + " is not a finite number");
    return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

}  // namespace

void to_json(json& j, const MrRecord& v) {
    j = json::object();
    j["device"] = v.device;
    j["mr"] = v.mr;
    put_opt(j, "key", v.key);
    j["owner"] = v.owner;
    j["transport"] = to_string(v.transport);
    j["state"] = to_string(v.state);
    j["state_since"] = time_json(v.state_since);
    j["first_seen"] = time_json(v.first_seen);
    j["last_seen"] = time_json(v.last_seen);
    if (v.last_op) j["last_op"] = to_string(*v.last_op);
    if (v.last_status) j["last_status"] = to_string(*v.last_status);
    if (v.flagged_since) j["flagged_since"] = time_json(*v.flagged_since);
    j["completions"] = v.completions;
    if (!v.source.empty()) j["source"] = v.source;
    if (!v.advice.empty()) j["advice"] = v.advice;
}

void from_json(const json& j, MrRecord& v) {
    v = MrRecord{};
    get_required(j, "device", v.device);
    get_required(j, "mr", v.mr);
    get_opt(j, "key", v.key);
    get_to(j, "owner", v.owner);
    if (j.contains("transport")) {
        v.transport = enum_from<Transport>(j["transport"], parse_transport, "transport");
    }
    v.state = enum_from<MrState>(j.at("state"), parse_mr_state, "MR state");
    get_time(j, "state_since", v.state_since);
    get_time(j, "first_seen", v.first_seen);
    get_time(j, "last_seen", v.last_seen);
    if (j.contains("last_op")) v.last_op = enum_from<MrOp>(j["last_op"], parse_mr_op, "MR op");
    if (j.contains("last_status")) {
        v.last_status = enum_from<WcStatus>(j["last_status"], parse_wc_status, "WC status");
    }
    get_opt_time(j, "flagged_since", v.flagged_since);
    get_to(j, "completions", v.completions);
    get_to(j, "source", v.source);
    get_to(j, "advice", v.advice);
}

void to_json(json& j, const MrDeviceHealth& v) {
    json by_state = json::object();
    for (const auto& [s, n] : v.by_state) by_state[std::string(to_string(s))] = n;
    json completions = json::array();
    for (const auto& c : v.completions) {
        completions.push_back(
            {{"op", to_string(c.op)}, {"status", to_string(c.status)}, {"count", c.count}});
    }
    json posted = json::object();
    for (const auto& [op, n] : v.posted) posted[std::string(to_string(op))] = n;
    j = json::object();
    j["device"] = v.device;
    j["by_state"] = by_state;
    j["completions"] = completions;
    j["posted"] = posted;
    j["bind_errors"] = v.bind_errors;
    j["entered_unknown"] = v.entered_unknown;
    j["entered_stuck"] = v.entered_stuck;
    j["recoveries"] = v.recoveries;
    j["recovery_seconds_total"] = seconds_json(v.recovery_time_total);
    j["unknown_seconds_total"] = seconds_json(v.unknown_time_total);
    j["duplicate_events"] = v.duplicate_events;
    j["late_events"] = v.late_events;
    j["failed_ops"] = v.failed_ops;
    j["ignored_while_stuck"] = v.ignored_while_stuck;
}

void from_json(const json& j, MrDeviceHealth& v) {
    v = MrDeviceHealth{};
    get_required(j, "device", v.device);
    if (auto it = j.find("by_state"); it != j.end()) {
        in_field("by_state", [&] {
            for (const auto& [k, n] : it->items()) {
                v.by_state[enum_from<MrState>(json(k), parse_mr_state, "MR state")] =
                    n.get<uint64_t>();
            }
        });
    }
    if (auto it = j.find("completions"); it != j.end()) {
        in_field("completions", [&] {
            for (const auto& c : *it) {
                MrCompletionCount n{
                    enum_from<MrOp>(c.at("op"), parse_mr_op, "MR op"),
                    enum_from<WcStatus>(c.at("status"), parse_wc_status, "WC status"), 0};
                get_required(c, "count", n.count);
                v.completions.push_back(n);
            }
        });
    }
    if (auto it = j.find("posted"); it != j.end()) {
        in_field("posted", [&] {
            for (const auto& [k, n] : it->items()) {
                v.posted[enum_from<MrOp>(json(k), parse_mr_op, "MR op")] = n.get<uint64_t>();
            }
        });
    }
    get_to(j, "bind_errors", v.bind_errors);
    get_to(j, "entered_unknown", v.entered_unknown);
    get_to(j, "entered_stuck", v.entered_stuck);
    get_to(j, "recoveries", v.recoveries);
    v.recovery_time_total = seconds_from(j, "recovery_seconds_total");
    v.unknown_time_total = seconds_from(j, "unknown_seconds_total");
    get_to(j, "duplicate_events", v.duplicate_events);
    get_to(j, "late_events", v.late_events);
    get_to(j, "failed_ops", v.failed_ops);
    get_to(j, "ignored_while_stuck", v.ignored_while_stuck);
}

void to_json(json& j, const MrRecovery& v) {
    j = json::object();
    j["device"] = v.device;
    j["mr"] = v.mr;
    j["owner"] = v.owner;
    j["from"] = to_string(v.from);
    j["kind"] = to_string(v.kind);
    j["flagged_since"] = time_json(v.flagged_since);
    j["recovered"] = time_json(v.recovered);
    j["seconds"] = seconds_json(v.recovered - v.flagged_since);
}

void from_json(const json& j, MrRecovery& v) {
    v = MrRecovery{};
    get_required(j, "device", v.device);
    get_required(j, "mr", v.mr);
    get_to(j, "owner", v.owner);
    v.from = enum_from<MrState>(j.at("from"), parse_mr_state, "MR state");
    v.kind = enum_from<MrRecoveryKind>(j.at("kind"), parse_mr_recovery_kind, "recovery kind");
    v.flagged_since = time_from(j.at("flagged_since"));
    v.recovered = time_from(j.at("recovered"));
}

void to_json(json& j, const MrKernelBehaviour& v) {
    j = json::object();
    j["flushed_mrs"] = to_string(v.flushed_mrs);
    if (!v.kernel.empty()) j["kernel"] = v.kernel;
    if (!v.basis.empty()) j["basis"] = v.basis;
}

void from_json(const json& j, MrKernelBehaviour& v) {
    v = MrKernelBehaviour{};
    v.flushed_mrs =
        enum_from<FlushedMrHandling>(j.at("flushed_mrs"), parse_flushed_mr_handling, "flushed_mrs");
    get_to(j, "kernel", v.kernel);
    get_to(j, "basis", v.basis);
}

void to_json(json& j, const MrProcessUsage& v) {
    j = json::object();
    put_opt(j, "pid", v.pid);
    j["comm"] = v.comm;
    j["mrs"] = v.mrs;
    j["bytes"] = v.bytes;
    j["devices"] = v.devices;
    j["first_seen"] = time_json(v.first_seen);
    j["mrs_growth"] = v.mrs_growth;
    j["bytes_growth"] = v.bytes_growth;
    j["growth_seconds"] = seconds_json(v.growth_over);
    j["leak_suspected"] = v.leak_suspected;
    j["owner_gone"] = v.owner_gone;
}

void from_json(const json& j, MrProcessUsage& v) {
    v = MrProcessUsage{};
    get_opt(j, "pid", v.pid);
    get_to(j, "comm", v.comm);
    get_to(j, "mrs", v.mrs);
    get_to(j, "bytes", v.bytes);
    get_to(j, "devices", v.devices);
    get_time(j, "first_seen", v.first_seen);
    get_to(j, "mrs_growth", v.mrs_growth);
    get_to(j, "bytes_growth", v.bytes_growth);
    v.growth_over = seconds_from(j, "growth_seconds");
    get_to(j, "leak_suspected", v.leak_suspected);
    get_to(j, "owner_gone", v.owner_gone);
}

void to_json(json& j, const MrDeviceUsage& v) {
    j = json::object();
    j["device"] = v.device;
    j["mrs"] = v.mrs;
    j["bytes"] = v.bytes;
    put_opt(j, "max_mr", v.max_mr);
    j["owner_gone_mrs"] = v.owner_gone_mrs;
    j["exhaustion_near"] = v.exhaustion_near;
}

void from_json(const json& j, MrDeviceUsage& v) {
    v = MrDeviceUsage{};
    get_required(j, "device", v.device);
    get_to(j, "mrs", v.mrs);
    get_to(j, "bytes", v.bytes);
    get_opt(j, "max_mr", v.max_mr);
    get_to(j, "owner_gone_mrs", v.owner_gone_mrs);
    get_to(j, "exhaustion_near", v.exhaustion_near);
}

void to_json(json& j, const MrUsage& v) {
    j = json::object();
    j["processes"] = v.processes;
    j["other"] =
        json{{"processes", v.other_processes}, {"mrs", v.other_mrs}, {"bytes", v.other_bytes}};
    j["devices"] = v.devices;
}

void from_json(const json& j, MrUsage& v) {
    v = MrUsage{};
    get_to(j, "processes", v.processes);
    if (j.contains("other")) {
        const json& o = j.at("other");
        get_to(o, "processes", v.other_processes);
        get_to(o, "mrs", v.other_mrs);
        get_to(o, "bytes", v.other_bytes);
    }
    get_to(j, "devices", v.devices);
}

void to_json(json& j, const MrHealth& v) {
    j = json::object();
    j["mrs"] = v.mrs;
    j["devices"] = v.devices;
    j["recoveries"] = v.recoveries;
    j["dropped_records"] = v.dropped_records;
    j["kernel"] = v.kernel;
    j["usage"] = v.usage;
}

void from_json(const json& j, MrHealth& v) {
    v = MrHealth{};
    get_to(j, "mrs", v.mrs);
    get_to(j, "devices", v.devices);
    get_to(j, "recoveries", v.recoveries);
    get_to(j, "dropped_records", v.dropped_records);
    get_to(j, "kernel", v.kernel);
    get_to(j, "usage", v.usage);
}

Result<MrHealth> codec::mr_health_from_json(const json& j) {
    try {
        return j.get<MrHealth>();
    } catch (const std::exception& e) {
        return make_error(std::string("MR health JSON: ") + e.what());
    }
}

}  // namespace rdmadiag
