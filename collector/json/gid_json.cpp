#include "collector/json/gid_json.hpp"

#include "collector/json/json_fields.hpp"

namespace rdmadiag {

using codec::enum_from;
using codec::get_opt_time;
using codec::get_required;
using codec::get_time;
using codec::get_to;
using codec::JsonDecodeError;
using codec::time_json;
using json = codec::Json;

namespace {

Gid gid_from(const json& j) {
    auto g = parse_gid(j.get<std::string>());
    if (!g) throw JsonDecodeError(g.error().message);
    return *g;
}

}  // namespace

void to_json(json& j, const GidEntry& v) {
    j = json{{"index", v.index}, {"gid", v.gid.to_string()}, {"type", to_string(v.type)}};
    if (!v.ndev.empty()) j["ndev"] = v.ndev;
}

void from_json(const json& j, GidEntry& v) {
    v = GidEntry{};
    get_required(j, "index", v.index);
    codec::in_field("gid", [&] { v.gid = gid_from(j.at("gid")); });
    if (j.contains("type")) v.type = enum_from<GidType>(j["type"], parse_gid_type, "GID type");
    get_to(j, "ndev", v.ndev);
}

void to_json(json& j, const GidTable& v) {
    j = json{{"entries", v.entries}};
    if (!v.unreadable.empty()) j["unreadable"] = v.unreadable;
}

void from_json(const json& j, GidTable& v) {
    v = GidTable{};
    get_required(j, "entries", v.entries);
    get_to(j, "unreadable", v.unreadable);
}

void to_json(json& j, const GidViewState& v) {
    j = json::object();
    j["view"] = to_string(v.view);
    j["table"] = v.table;
    j["generation"] = v.generation;
    j["changed"] = time_json(v.changed);
    j["confirmed"] = time_json(v.confirmed);
    j["source"] = v.source;
}

void from_json(const json& j, GidViewState& v) {
    v = GidViewState{};
    v.view = enum_from<GidView>(j.at("view"), parse_gid_view, "GID view");
    get_required(j, "table", v.table);
    get_to(j, "generation", v.generation);
    get_time(j, "changed", v.changed);
    get_time(j, "confirmed", v.confirmed);
    get_to(j, "source", v.source);
}

void to_json(json& j, const GidDiff& v) {
    j = json{{"device", v.port.device},
             {"port", v.port.port},
             {"view", to_string(v.view)},
             {"old_generation", v.old_generation},
             {"new_generation", v.new_generation},
             {"time", time_json(v.time)},
             {"removed", v.removed},
             {"added", v.added}};
}

void from_json(const json& j, GidDiff& v) {
    v = GidDiff{};
    get_required(j, "device", v.port.device);
    get_required(j, "port", v.port.port);
    v.view = enum_from<GidView>(j.at("view"), parse_gid_view, "GID view");
    get_to(j, "old_generation", v.old_generation);
    get_to(j, "new_generation", v.new_generation);
    get_time(j, "time", v.time);
    get_to(j, "removed", v.removed);
    get_to(j, "added", v.added);
}

void to_json(json& j, const PortGidState& v) {
    j = json{{"views", v.views}, {"coherence", to_string(v.coherence)}, {"note", v.note}};
    if (v.differs_since) j["differs_since"] = time_json(*v.differs_since);
    j["gid_change_events"] = v.gid_change_events;
    if (v.last_gid_change) j["last_gid_change"] = time_json(*v.last_gid_change);
    j["client_reregister_events"] = v.client_reregister_events;
    if (v.last_client_reregister)
        j["last_client_reregister"] = time_json(*v.last_client_reregister);
    if (!v.last_changes.empty()) j["last_changes"] = v.last_changes;
}

void from_json(const json& j, PortGidState& v) {
    v = PortGidState{};
    get_to(j, "views", v.views);
    if (j.contains("coherence")) {
        v.coherence = enum_from<GidCoherence>(j["coherence"], parse_gid_coherence, "GID coherence");
    }
    get_to(j, "note", v.note);
    get_opt_time(j, "differs_since", v.differs_since);
    get_to(j, "gid_change_events", v.gid_change_events);
    get_opt_time(j, "last_gid_change", v.last_gid_change);
    get_to(j, "client_reregister_events", v.client_reregister_events);
    get_opt_time(j, "last_client_reregister", v.last_client_reregister);
    get_to(j, "last_changes", v.last_changes);
}

void to_json(json& j, const GidTableSample& v) {
    j = json{{"device", v.port.device},
             {"port", v.port.port},
             {"view", to_string(v.view)},
             {"table", v.table}};
}

void from_json(const json& j, GidTableSample& v) {
    v = GidTableSample{};
    get_required(j, "device", v.port.device);
    get_required(j, "port", v.port.port);
    v.view = enum_from<GidView>(j.at("view"), parse_gid_view, "GID view");
    get_required(j, "table", v.table);
}

}  // namespace rdmadiag
