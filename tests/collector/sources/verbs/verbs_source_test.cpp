// make_verbs_source on this machine's libibverbs: what it says with and without devices.

#include "collector/sources/verbs/verbs_source.hpp"

#include <infiniband/verbs.h>

#include <gtest/gtest.h>

namespace rdmadiag::verbs {
namespace {

int live_device_count() {
    int n = 0;
    ibv_device** list = ibv_get_device_list(&n);
    if (list == nullptr) return -1;
    ibv_free_device_list(list);
    return n;
}

TEST(VerbsSource, MatchesWhatLibibverbsLists) {
    auto made = make_verbs_source(sources::SourceSettings{});
    ASSERT_TRUE(made.ok()) << made.error().message;
    const auto& source = made.value();
    EXPECT_EQ(source->name(), "verbs");
    const int devices = live_device_count();
    const sources::Availability a = source->availability();
    if (devices == 0) {
        EXPECT_FALSE(a.available);
        EXPECT_EQ(a.reason, "no RDMA devices (ibv_get_device_list returned none)");
        EXPECT_TRUE(source->event_fds().empty());
    } else if (devices < 0) {
        EXPECT_FALSE(a.available);
        EXPECT_EQ(a.reason.rfind("ibv_get_device_list failed: ", 0), 0u) << a.reason;
    } else if (a.available) {
        EXPECT_FALSE(source->event_fds().empty());
    } else {
        // Present but not openable here (permissions): the reason names the device.
        EXPECT_EQ(a.reason.rfind("cannot open any RDMA device", 0), 0u) << a.reason;
    }

    sources::VectorSink sink;
    source->poll(SystemClock().now(), sink);
    bool saw_status = false;
    for (const auto& obs : sink.observations) {
        if (const auto* s = std::get_if<SourceStatus>(&obs.body)) {
            saw_status = true;
            EXPECT_EQ(s->up, a.available);
        }
    }
    EXPECT_TRUE(saw_status);
}

TEST(VerbsSource, IsNotBuiltForAnotherSysfsRoot) {
    sources::SourceSettings settings;
    settings.sysfs_root = "/work/fixtures/mlx5";
    auto made = make_verbs_source(settings);
    ASSERT_FALSE(made.ok());
    EXPECT_EQ(made.error().message,
              "verbs devices are live only: not read with sysfs root /work/fixtures/mlx5");
}

}  // namespace
}  // namespace rdmadiag::verbs
