#pragma once
// A partition model the engine judged: the built-in 'default' scenario played against the intent
// written for it (tests/fixtures/partitions/sim-default.conf), as `rdmadiag serve --simulate
// --partitions.conf` plays it. There 0x0003 "Three" should have both HCA ports as full members
// and does not (node01 holds it limited, node02 not at all), and 0x0002, which both hold, is not
// in the file.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "collector/model/snapshot.hpp"
#include "gui/client/engine_timeline.hpp"
#include "tests/gui/test_snapshots.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::gui::testing {

inline std::string sim_default_intent() {
    return ::rdmadiag::test::fixtures_dir() + "/partitions/sim-default.conf";
}

// The snapshot `seconds` into the played scenario; fails the calling test when it cannot be
// played or carries no judged partition model.
inline SnapshotPtr judged_partitions_snapshot(int seconds = 60) {
    auto t = client::make_scenario_timeline("default", at_seconds(0),
                                            {{"partitions.conf", sim_default_intent()}});
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    if (!t.ok()) return nullptr;
    SnapshotPtr s = (*t)->seek(std::chrono::seconds(seconds));
    EXPECT_TRUE(s && s->partitions && s->partitions->intent) << "no judged partition model";
    return s && s->partitions && s->partitions->intent ? s : nullptr;
}

}  // namespace rdmadiag::gui::testing
