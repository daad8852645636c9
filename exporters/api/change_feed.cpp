#include "exporters/api/change_feed.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"
#include "collector/json/pkey_diff_json.hpp"
#include "collector/json/snapshot_json.hpp"

namespace rdmadiag::api {

using json = codec::Json;

namespace {

json device_without_counters(const DeviceSnapshot& d) {
    json j = d;
    for (auto& p : j["ports"]) p.erase("counters");
    return j;
}

}  // namespace

json change_feed_view(const Snapshot& snap, uint64_t since, std::string_view instance) {
    const bool full = since == 0 || since > snap.sequence;
    auto changed = [&](uint64_t revision) { return full || revision > since; };
    json j{{"version", codec::kSnapshotJsonVersion},
           {"instance", instance},
           {"sequence", snap.sequence},
           {"time", codec::time_json(snap.time)},
           {"full", full}};
    json devices = json::array();
    for (const auto& d : snap.devices) {
        if (changed(d.revision)) devices.push_back(device_without_counters(d));
    }
    j["devices"] = std::move(devices);
    const auto& r = snap.revisions;
    if (changed(r.devices)) {
        json names = json::array();
        for (const auto& d : snap.devices) names.push_back(d.info.device);
        j["device_names"] = std::move(names);
    }
    if (changed(r.sources)) j["sources"] = snap.sources;
    if (changed(r.findings)) j["findings"] = snap.findings;
    if (changed(r.finding_history)) j["finding_history"] = snap.finding_history;
    if (changed(r.events)) j["events"] = snap.events;
    if (changed(r.errors)) j["errors"] = snap.errors;
    if (changed(r.mrs)) j["mrs"] = snap.mrs;
    if (changed(r.pkey_changes)) j["pkey_changes"] = snap.pkey_changes;
    return j;
}

}  // namespace rdmadiag::api
