#pragma once
// /api/v1/changes?since=S: what changed since the snapshot a client last saw, so a client of a
// 12,000-port collector fetches the whole snapshot once and then only deltas. Polling a delta
// rather than holding a server-sent event stream open: it needs no connection per client, passes
// every proxy, works with basic auth and gzip like every other route, and a client that missed
// answers simply asks with an older `since`.
//
// The answer: `instance` (this daemon run; a client that sees it change starts over), `sequence`
// and `time` of the latest snapshot, `full`, then
// - `devices`: those whose revision is newer than `since`, as in /api/v1/snapshot, without their
//   ports' counters (ask /api/v1/counters for the ports shown);
// - `device_names`: every device name, when the set of devices changed;
// - `sources`, `findings`, `finding_history`, `events`, `errors`, `mrs`, `pkey_changes`: each
// whole,
//   when it changed.
// `full` (every part present) when `since` is 0 or ahead of the latest snapshot (a restarted
// daemon).

#include <cstdint>
#include <string>
#include <string_view>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::api {

// JSON text, written device by device.
std::string change_feed_view(const Snapshot& snap, uint64_t since, std::string_view instance);

}  // namespace rdmadiag::api
