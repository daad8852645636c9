#include "exporters/api/change_feed.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"
#include "collector/json/pkey_diff_json.hpp"
#include "collector/json/snapshot_json.hpp"
#include "exporters/api/json_text.hpp"

namespace rdmadiag::api {

using json = codec::Json;

namespace {

json device_without_counters(const DeviceSnapshot& d) {
    json j = d;
    for (auto& p : j["ports"]) p.erase("counters");
    return j;
}

}  // namespace

std::string change_feed_view(const Snapshot& snap, uint64_t since, std::string_view instance) {
    const bool full = since == 0 || since > snap.sequence;
    auto changed = [&](uint64_t revision) { return full || revision > since; };
    JsonText out;
    out.field("version", codec::kSnapshotJsonVersion)
        .field("instance", instance)
        .field("sequence", snap.sequence)
        .field("time", codec::time_json(snap.time))
        .field("full", full);
    out.begin_list("devices");
    for (const auto& d : snap.devices) {
        if (changed(d.revision)) out.item(device_without_counters(d));
    }
    out.end_list();
    const auto& r = snap.revisions;
    if (changed(r.devices)) {
        out.begin_list("device_names");
        for (const auto& d : snap.devices) out.item(d.info.device);
        out.end_list();
    }
    if (changed(r.sources)) out.field("sources", snap.sources);
    if (changed(r.findings)) out.field("findings", snap.findings);
    if (changed(r.finding_history)) out.field("finding_history", snap.finding_history);
    if (changed(r.events)) out.field("events", snap.events);
    if (changed(r.errors)) out.field("errors", snap.errors);
    if (changed(r.mrs)) out.field("mrs", snap.mrs);
    if (changed(r.pkey_changes)) out.field("pkey_changes", snap.pkey_changes);
    return out.finish();
}

}  // namespace rdmadiag::api
