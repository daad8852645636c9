#include "collector/sources/verbs/verbs_event_source.hpp"

#include <gtest/gtest.h>

#include "collector/sources/verbs/verbs_options.hpp"
#include "tests/collector/sources/verbs/fake_verbs_backend.hpp"
#include "tests/collector/sources/verbs/observation_filters.hpp"
#include "tests/support/source_options.hpp"

namespace rdmadiag::verbs {
namespace {

using testing::bodies_of;
using testing::FakeVerbsBackend;

const TimePoint t0{std::chrono::seconds(50)};

struct Made {
    std::unique_ptr<VerbsEventSource> source;
    FakeVerbsBackend* backend;
};

Made make(const sources::SourceSettings& settings, void (*setup)(FakeVerbsBackend&)) {
    auto backend = std::make_unique<FakeVerbsBackend>();
    setup(*backend);
    auto* raw = backend.get();
    return Made{std::make_unique<VerbsEventSource>(std::move(backend), settings,
                                                   std::chrono::seconds(2), t0),
                raw};
}

TEST(VerbsEventSource, WithoutDevicesItIsUnavailableAndSaysWhy) {
    auto m = make(sources::SourceSettings{}, [](FakeVerbsBackend&) {});
    EXPECT_EQ(m.source->name(), "verbs");
    const sources::Availability a = m.source->availability();
    EXPECT_FALSE(a.available);
    EXPECT_EQ(a.reason, "no RDMA devices (ibv_get_device_list returned none)");
    EXPECT_TRUE(m.source->event_fds().empty());

    sources::VectorSink sink;
    m.source->poll(t0 + std::chrono::seconds(2), sink);
    auto status = bodies_of<SourceStatus>(sink.observations);
    ASSERT_EQ(status.size(), 1u);
    EXPECT_FALSE(status[0].up);
}

TEST(VerbsEventSource, DescriptorsAreReadyBeforeTheFirstPoll) {
    auto m = make(sources::SourceSettings{}, [](FakeVerbsBackend& b) { b.add("rxe0"); });
    EXPECT_TRUE(m.source->availability().available);
    ASSERT_EQ(m.source->event_fds().size(), 1u);
    EXPECT_EQ(m.source->poll_interval(), std::chrono::seconds(2));
    EXPECT_EQ(m.source->watched_ports(), (std::vector<PortRef>{{"rxe0", 1}}));

    // The first scan's reads come out with the first call, stamped when they were made.
    sources::VectorSink sink;
    m.backend->listed[0]->events = {{10, 1}};
    m.source->on_readable(m.source->event_fds()[0], t0 + std::chrono::seconds(1), sink);
    ASSERT_GE(sink.observations.size(), 4u);
    EXPECT_EQ(sink.observations.front().time, t0);
    EXPECT_EQ(bodies_of<SourceStatus>(sink.observations).at(0).reason,
              "watching async events on rxe0:1");
    EXPECT_EQ(bodies_of<AsyncEvent>(sink.observations).at(0).type, AsyncEventType::port_err);
    EXPECT_EQ(sink.observations.back().time, t0 + std::chrono::seconds(1));

    sources::VectorSink again;
    m.source->poll(t0 + std::chrono::seconds(2), again);
    EXPECT_TRUE(again.observations.empty());
}

TEST(VerbsEventSource, HonoursTheDeviceSelection) {
    sources::SourceSettings settings;
    settings.include_devices = {"mlx5_*"};
    auto m = make(settings, [](FakeVerbsBackend& b) {
        b.add("rxe0");
        b.add("mlx5_0");
    });
    EXPECT_EQ(m.backend->listed[0]->opens, 0);
    EXPECT_EQ(m.backend->listed[1]->opens, 1);
}

TEST(VerbsEventSource, RefreshEmitsTheDevicePkeyView) {
    auto m = make(sources::SourceSettings{}, [](FakeVerbsBackend& b) { b.add("rxe0"); });
    sources::VectorSink first;
    m.source->poll(t0, first);
    sources::VectorSink sink;
    m.source->refresh(PortRef{"rxe0", 1}, t0, sink);
    auto tables = bodies_of<PKeyTableSample>(sink.observations);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].view, PKeyView::device);
    EXPECT_EQ(bodies_of<PortStateSample>(sink.observations).size(), 1u);
}

TEST(VerbsRescanInterval, ReadsTheSetting) {
    sources::SourceSettings s;
    EXPECT_EQ(verbs_rescan_interval(s), std::chrono::seconds(2));
    EXPECT_EQ(verbs_rescan_interval(::rdmadiag::test::resolved(s, "verbs", verbs_options())),
              VerbsEventSource::kDefaultRescanInterval)
        << "the declared default is the source's";
    s.extra["verbs.rescan_interval"] = "500ms";
    EXPECT_EQ(verbs_rescan_interval(::rdmadiag::test::resolved(s, "verbs", verbs_options())),
              std::chrono::milliseconds(500));
    for (const char* bad : {"soon", "0s", "-1s"}) {
        s.extra["verbs.rescan_interval"] = bad;
        EXPECT_FALSE(sources::resolve_source_options("verbs", verbs_options(), s).ok()) << bad;
    }
}

}  // namespace
}  // namespace rdmadiag::verbs
