#include "collector/json/model_json.hpp"

#include <cstdio>

#include "collector/json/json_fields.hpp"

namespace rdmadiag {

using codec::enum_from;
using codec::get_opt;
using codec::get_required;
using codec::get_time;
using codec::get_to;
using codec::JsonDecodeError;
using codec::put_opt;
using codec::time_json;
using json = codec::Json;

namespace codec {

std::string guid_text(uint64_t guid) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
    return buf;
}

uint64_t guid_from(const json& j) {
    if (j.is_number_unsigned()) return j.get<uint64_t>();
    const auto s = j.get<std::string>();
    size_t used = 0;
    unsigned long long v = 0;
    try {
        v = std::stoull(s, &used, 16);
    } catch (const std::exception&) {
        throw JsonDecodeError("not a GUID: '" + s + "'");
    }
    if (used != s.size()) throw JsonDecodeError("not a GUID: '" + s + "'");
    return v;
}

}  // namespace codec

namespace {

void put_guid(json& j, const char* key, const std::optional<uint64_t>& v) {
    if (v) j[key] = codec::guid_text(*v);
}

void get_guid(const json& j, const char* key, std::optional<uint64_t>& out) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        out.reset();
    } else {
        out = codec::guid_from(*it);
    }
}

// Event counts are held in 32 bits and stop there (CounterState says why).
uint32_t get_count32(const json& j, const char* key) {
    uint64_t n = 0;
    get_to(j, key, n);
    return n > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(n);
}

}  // namespace

void to_json(json& j, const DeviceInfo& v) {
    j = json::object();
    j["device"] = v.device;
    put_opt(j, "node_type", v.node_type);
    put_guid(j, "node_guid", v.node_guid);
    put_guid(j, "sys_image_guid", v.sys_image_guid);
    put_opt(j, "fw_ver", v.fw_ver);
    put_opt(j, "board_id", v.board_id);
    put_opt(j, "hca_type", v.hca_type);
    put_opt(j, "node_desc", v.node_desc);
    put_opt(j, "lid", v.lid);
    j["transport"] = to_string(v.transport);
    put_opt(j, "reachable", v.reachable);
    if (!v.unreachable_kind.empty()) j["unreachable_kind"] = v.unreachable_kind;
    if (!v.unreachable_reason.empty()) j["unreachable_reason"] = v.unreachable_reason;
}

void from_json(const json& j, DeviceInfo& v) {
    v = DeviceInfo{};
    get_required(j, "device", v.device);
    get_opt(j, "node_type", v.node_type);
    get_guid(j, "node_guid", v.node_guid);
    get_guid(j, "sys_image_guid", v.sys_image_guid);
    get_opt(j, "fw_ver", v.fw_ver);
    get_opt(j, "board_id", v.board_id);
    get_opt(j, "hca_type", v.hca_type);
    get_opt(j, "node_desc", v.node_desc);
    get_opt(j, "lid", v.lid);
    if (j.contains("transport")) {
        v.transport = enum_from<Transport>(j["transport"], parse_transport, "transport");
    }
    get_opt(j, "reachable", v.reachable);
    get_to(j, "unreachable_kind", v.unreachable_kind);
    get_to(j, "unreachable_reason", v.unreachable_reason);
}

void to_json(json& j, const PortStateSample& v) {
    j = json::object();
    j["device"] = v.port.device;
    j["port"] = v.port.port;
    if (v.state) j["state"] = to_string(*v.state);
    put_opt(j, "phys_state", v.phys_state);
    put_opt(j, "phys_state_text", v.phys_state_text);
    put_opt(j, "lid", v.lid);
    put_opt(j, "sm_lid", v.sm_lid);
    put_opt(j, "lmc", v.lmc);
    if (v.link_layer) j["link_layer"] = to_string(*v.link_layer);
    put_opt(j, "rate", v.rate);
    put_opt(j, "cap_mask", v.cap_mask);
    put_guid(j, "port_guid", v.port_guid);
    if (!v.gids.empty()) j["gids"] = v.gids;
    put_guid(j, "peer_node_guid", v.peer_node_guid);
    put_opt(j, "peer_port", v.peer_port);
    put_opt(j, "partition_enforcement_inbound", v.partition_enforcement_inbound);
    put_opt(j, "partition_enforcement_outbound", v.partition_enforcement_outbound);
}

void from_json(const json& j, PortStateSample& v) {
    v = PortStateSample{};
    get_required(j, "device", v.port.device);
    get_required(j, "port", v.port.port);
    if (j.contains("state")) {
        v.state = enum_from<PortState>(j["state"], parse_port_state, "port state");
    }
    get_opt(j, "phys_state", v.phys_state);
    get_opt(j, "phys_state_text", v.phys_state_text);
    get_opt(j, "lid", v.lid);
    get_opt(j, "sm_lid", v.sm_lid);
    get_opt(j, "lmc", v.lmc);
    if (j.contains("link_layer")) {
        v.link_layer = enum_from<LinkLayer>(j["link_layer"], parse_link_layer, "link layer");
    }
    get_opt(j, "rate", v.rate);
    get_opt(j, "cap_mask", v.cap_mask);
    get_guid(j, "port_guid", v.port_guid);
    get_to(j, "gids", v.gids);
    get_guid(j, "peer_node_guid", v.peer_node_guid);
    get_opt(j, "peer_port", v.peer_port);
    get_opt(j, "partition_enforcement_inbound", v.partition_enforcement_inbound);
    get_opt(j, "partition_enforcement_outbound", v.partition_enforcement_outbound);
}

void to_json(json& j, const PKeyTable& v) {
    j = json::object();
    auto keys = json::array();
    for (auto k : v.keys) keys.push_back(format_pkey(k));
    j["keys"] = std::move(keys);
    if (!v.unreadable.empty()) j["unreadable"] = v.unreadable;
}

void from_json(const json& j, PKeyTable& v) {
    v = PKeyTable{};
    for (const auto& k : j.at("keys")) {
        auto p = parse_pkey(k.get<std::string>());
        if (!p) throw JsonDecodeError(p.error().message);
        v.keys.push_back(*p);
    }
    get_to(j, "unreadable", v.unreadable);
    for (auto u : v.unreadable) {
        if (u >= v.keys.size()) throw JsonDecodeError("unreadable index out of range");
    }
}

void to_json(json& j, const CounterState& v) {
    j = json{{"name", v.name.str()},
             {"kind", to_string(v.kind)},
             {"width", v.width},
             {"raw", v.raw},
             {"total", v.total},
             {"saturated", v.saturated},
             {"resets", v.resets},
             {"wraps", v.wraps},
             {"updated", time_json(v.updated)},
             {"last_increase", time_json(v.last_increase)},
             {"saturations", v.saturations},
             {"lower_bound", v.lower_bound}};
    if (v.saturated_since) j["saturated_since"] = time_json(*v.saturated_since);
    if (v.last_reset) j["last_reset"] = time_json(*v.last_reset);
}

void from_json(const json& j, CounterState& v) {
    v = CounterState{};
    std::string name;
    get_required(j, "name", name);
    v.name = name;
    v.kind = enum_from<CounterKind>(j.at("kind"), parse_counter_kind, "counter kind");
    get_to(j, "width", v.width);
    get_to(j, "raw", v.raw);
    get_to(j, "total", v.total);
    get_to(j, "saturated", v.saturated);
    v.resets = get_count32(j, "resets");
    v.wraps = get_count32(j, "wraps");
    get_time(j, "updated", v.updated);
    get_time(j, "last_increase", v.last_increase);
    v.saturations = get_count32(j, "saturations");
    get_to(j, "lower_bound", v.lower_bound);
    std::optional<TimePoint> moment;
    codec::get_opt_time(j, "saturated_since", moment);
    v.saturated_since = moment;
    codec::get_opt_time(j, "last_reset", moment);
    v.last_reset = moment;
}

void to_json(json& j, const AsyncEvent& v) {
    j = json::object();
    j["device"] = v.device;
    put_opt(j, "port", v.port);
    j["type"] = to_string(v.type);
    put_opt(j, "element", v.element);
}

void from_json(const json& j, AsyncEvent& v) {
    v = AsyncEvent{};
    get_required(j, "device", v.device);
    get_opt(j, "port", v.port);
    v.type = enum_from<AsyncEventType>(j.at("type"), parse_async_event_type, "event type");
    get_opt(j, "element", v.element);
}

void to_json(json& j, const SampleError& v) {
    j = json{{"subject", v.subject}, {"message", v.message}, {"code", v.code}};
}

void from_json(const json& j, SampleError& v) {
    v = SampleError{};
    get_required(j, "subject", v.subject);
    get_required(j, "message", v.message);
    get_to(j, "code", v.code);
}

void to_json(json& j, const MrOwner& v) {
    j = json::object();
    put_opt(j, "pid", v.pid);
    j["name"] = v.name;
}

void from_json(const json& j, MrOwner& v) {
    v = MrOwner{};
    get_opt(j, "pid", v.pid);
    get_to(j, "name", v.name);
}

void to_json(json& j, const FindingSubject& v) {
    j = json::object();
    j["device"] = v.device;
    put_opt(j, "port", v.port);
    put_opt(j, "index", v.index);
    if (v.pkey) j["pkey"] = format_pkey(*v.pkey);
    put_opt(j, "mr", v.mr);
    put_opt(j, "pid", v.pid);
    j["text"] = v.to_string();
}

void from_json(const json& j, FindingSubject& v) {
    v = FindingSubject{};
    get_required(j, "device", v.device);
    get_opt(j, "port", v.port);
    get_opt(j, "index", v.index);
    if (j.contains("pkey")) {
        auto p = parse_pkey(j["pkey"].get<std::string>());
        if (!p) throw JsonDecodeError(p.error().message);
        v.pkey = *p;
    }
    get_opt(j, "mr", v.mr);
    get_opt(j, "pid", v.pid);
}

void to_json(json& j, const Finding& v) {
    j = json::object();
    j["id"] = v.id();
    j["rule"] = v.rule;
    j["severity"] = to_string(v.severity);
    j["subject"] = v.subject;
    j["since"] = time_json(v.since);
    if (v.cleared) j["cleared"] = time_json(*v.cleared);
    j["evidence"] = v.evidence;
    j["advice"] = v.advice;
}

void from_json(const json& j, Finding& v) {
    v = Finding{};
    get_required(j, "rule", v.rule);
    v.severity = enum_from<Severity>(j.at("severity"), parse_severity, "severity");
    get_required(j, "subject", v.subject);
    get_time(j, "since", v.since);
    codec::get_opt_time(j, "cleared", v.cleared);
    get_to(j, "evidence", v.evidence);
    get_to(j, "advice", v.advice);
}

}  // namespace rdmadiag
