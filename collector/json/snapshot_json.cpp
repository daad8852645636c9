#include "collector/json/snapshot_json.hpp"

#include "collector/json/gid_json.hpp"
#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"
#include "collector/json/pkey_diff_json.hpp"
#include "collector/json/pkey_state_json.hpp"

namespace rdmadiag {

using codec::get_required;
using codec::get_time;
using codec::get_to;
using codec::time_json;
using json = codec::Json;

void to_json(json& j, const PortSnapshot& v) {
    j = json::object();
    j["device"] = v.ref.device;
    j["port"] = v.ref.port;
    j["present"] = v.present;
    j["updated"] = time_json(v.updated);
    j["info"] = v.info;
    j["pkeys"] = v.pkeys;
    if (v.gids.has_value() && !v.gids->empty()) j["gids"] = *v.gids;
    j["counters"] = v.counters;
}

void from_json(const json& j, PortSnapshot& v) {
    v = PortSnapshot{};
    get_required(j, "device", v.ref.device);
    get_required(j, "port", v.ref.port);
    get_to(j, "present", v.present);
    get_time(j, "updated", v.updated);
    if (j.contains("info")) j["info"].get_to(v.info);
    v.info.port = v.ref;
    get_to(j, "pkeys", v.pkeys);
    if (j.contains("gids")) {
        PortGidState gids;
        get_to(j, "gids", gids);
        v.gids = std::move(gids);
    }
    get_to(j, "counters", v.counters);
}

void to_json(json& j, const DeviceSnapshot& v) {
    j = json::object();
    j["info"] = v.info;
    j["present"] = v.present;
    j["source"] = v.source;
    j["updated"] = time_json(v.updated);
    j["revision"] = v.revision;
    j["ports"] = v.ports;
}

void from_json(const json& j, DeviceSnapshot& v) {
    v = DeviceSnapshot{};
    get_required(j, "info", v.info);
    get_to(j, "present", v.present);
    get_to(j, "source", v.source);
    get_time(j, "updated", v.updated);
    get_to(j, "revision", v.revision);
    get_to(j, "ports", v.ports);
}

void to_json(json& j, const SourceSnapshot& v) {
    j = json{{"name", v.name},     {"up", v.up},
             {"reason", v.reason}, {"observations", v.observations},
             {"errors", v.errors}, {"last_seen", time_json(v.last_seen)}};
}

void from_json(const json& j, SourceSnapshot& v) {
    v = SourceSnapshot{};
    get_required(j, "name", v.name);
    get_to(j, "up", v.up);
    get_to(j, "reason", v.reason);
    get_to(j, "observations", v.observations);
    get_to(j, "errors", v.errors);
    get_time(j, "last_seen", v.last_seen);
}

void to_json(json& j, const EventRecord& v) {
    j = v.event;
    j["time"] = time_json(v.time);
    j["source"] = v.source;
}

void from_json(const json& j, EventRecord& v) {
    v = EventRecord{};
    j.get_to(v.event);
    get_time(j, "time", v.time);
    get_to(j, "source", v.source);
}

void to_json(json& j, const ErrorRecord& v) {
    j = v.error;
    j["time"] = time_json(v.time);
    j["source"] = v.source;
}

void from_json(const json& j, ErrorRecord& v) {
    v = ErrorRecord{};
    j.get_to(v.error);
    get_time(j, "time", v.time);
    get_to(j, "source", v.source);
}

void to_json(json& j, const SectionRevisions& v) {
    j = json{{"devices", v.devices},   {"sources", v.sources},
             {"findings", v.findings}, {"finding_history", v.finding_history},
             {"events", v.events},     {"errors", v.errors},
             {"mrs", v.mrs},           {"pkey_changes", v.pkey_changes}};
}

void from_json(const json& j, SectionRevisions& v) {
    v = SectionRevisions{};
    get_to(j, "devices", v.devices);
    get_to(j, "sources", v.sources);
    get_to(j, "findings", v.findings);
    get_to(j, "finding_history", v.finding_history);
    get_to(j, "events", v.events);
    get_to(j, "errors", v.errors);
    get_to(j, "mrs", v.mrs);
    get_to(j, "pkey_changes", v.pkey_changes);
}

json codec::snapshot_to_json(const Snapshot& s) {
    json j = json::object();
    j["version"] = kSnapshotJsonVersion;
    j["sequence"] = s.sequence;
    j["time"] = time_json(s.time);
    j["devices"] = s.devices;
    j["sources"] = s.sources;
    j["findings"] = s.findings;
    j["finding_history"] = s.finding_history;
    j["events"] = s.events;
    j["errors"] = s.errors;
    j["mrs"] = s.mrs;
    j["pkey_changes"] = s.pkey_changes;
    j["revisions"] = s.revisions;
    return j;
}

Result<Snapshot> codec::snapshot_from_json(const json& j) {
    try {
        if (!j.is_object()) return make_error("snapshot JSON is not an object");
        int version = 0;
        get_to(j, "version", version);
        if (version != kSnapshotJsonVersion) {
            return make_error("snapshot JSON version " + std::to_string(version) +
                              " is not supported (expected " +
                              std::to_string(kSnapshotJsonVersion) + ")");
        }
        Snapshot s;
        get_to(j, "sequence", s.sequence);
        get_time(j, "time", s.time);
        get_to(j, "devices", s.devices);
        get_to(j, "sources", s.sources);
        get_to(j, "findings", s.findings);
        get_to(j, "finding_history", s.finding_history);
        get_to(j, "events", s.events);
        get_to(j, "errors", s.errors);
        get_to(j, "mrs", s.mrs);
        get_to(j, "pkey_changes", s.pkey_changes);
        get_to(j, "revisions", s.revisions);
        return s;
    } catch (const std::exception& e) {
        return make_error(std::string("malformed snapshot JSON: ") + e.what());
    }
}

Result<Snapshot> codec::parse_snapshot_json(std::string_view text) {
    auto j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return make_error("not valid JSON");
    return snapshot_from_json(j);
}

}  // namespace rdmadiag
