#include "collector/sources/verbs/device_lifecycle.hpp"

#include <gtest/gtest.h>

#include "tests/collector/sources/verbs/fake_verbs_backend.hpp"
#include "tests/collector/sources/verbs/ibv_event_codes.hpp"
#include "tests/collector/sources/verbs/observation_filters.hpp"

namespace rdmadiag::verbs {
namespace {

using testing::bodies_of;
using testing::FakeVerbsBackend;

using namespace test_codes;

const TimePoint kBoot{std::chrono::seconds(1000)};

// "dev:1,2 dev2:1" from SourceStatus::event_coverage where the model has it; nullopt where not.
template <class Status>
std::optional<std::string> coverage_text(const Status& status) {
    if constexpr (requires { status.event_coverage; }) {
        std::string out;
        for (const auto& c : status.event_coverage) {
            if (!out.empty()) out += " ";
            out += c.device + ":";
            for (size_t i = 0; i < c.ports.size(); ++i) {
                out += (i ? "," : "") + std::to_string(c.ports[i]);
            }
        }
        return out;
    } else {
        return std::nullopt;
    }
}

class DeviceLifecycle : public ::testing::Test {
protected:
    FakeVerbsBackend backend;
    sources::VectorSink sink;
    VerbsDeviceSet set{backend, [](const std::string& d) { return d != "skipme"; }, "verbs"};

    std::vector<Observation>& out() { return sink.observations; }
};

TEST_F(DeviceLifecycle, NoDevicesSaysSo) {
    set.scan(kBoot, sink);
    EXPECT_TRUE(set.fds().empty());
    EXPECT_EQ(set.down_reason(), "no RDMA devices (ibv_get_device_list returned none)");
    auto status = bodies_of<SourceStatus>(out());
    ASSERT_EQ(status.size(), 1u);
    EXPECT_FALSE(status[0].up);
    EXPECT_EQ(status[0].reason, "no RDMA devices (ibv_get_device_list returned none)");
}

TEST_F(DeviceLifecycle, OpensEachDeviceAndReadsItsPorts) {
    auto rxe = backend.add("rxe0");
    auto mlx = backend.add("mlx5_0", 2);
    mlx->pkeys[2] = {0xffff, 0x8001};
    set.scan(kBoot, sink);

    EXPECT_EQ(rxe->opens, 1);
    EXPECT_EQ(mlx->opens, 1);
    EXPECT_EQ(set.fds().size(), 2u);
    EXPECT_EQ(bodies_of<PortStateSample>(out()).size(), 3u);
    auto tables = bodies_of<PKeyTableSample>(out());
    ASSERT_EQ(tables.size(), 3u);
    const auto it = std::find_if(tables.begin(), tables.end(), [](const auto& t) {
        return t.port == PortRef{"mlx5_0", 2};
    });
    ASSERT_NE(it, tables.end());
    EXPECT_EQ(it->view, PKeyView::device);
    EXPECT_EQ(it->table.keys, (std::vector<uint16_t>{0xffff, 0x8001}));

    auto status = bodies_of<SourceStatus>(out());
    ASSERT_EQ(status.size(), 1u);
    EXPECT_TRUE(status[0].up);
    EXPECT_EQ(status[0].reason, "watching async events on mlx5_0:1-2, rxe0:1");
    if (auto coverage = coverage_text(status[0])) {
        EXPECT_EQ(*coverage, "mlx5_0:1,2 rxe0:1");
    }
    EXPECT_EQ(bodies_of<DeviceList>(out()).at(0).devices,
              (std::vector<std::string>{"mlx5_0", "rxe0"}));
    EXPECT_EQ(set.watched_ports(),
              (std::vector<PortRef>{{"mlx5_0", 1}, {"mlx5_0", 2}, {"rxe0", 1}}));
}

TEST_F(DeviceLifecycle, UnselectedDevicesAreNotOpened) {
    auto skipped = backend.add("skipme");
    set.scan(kBoot, sink);
    EXPECT_EQ(skipped->opens, 0);
    EXPECT_EQ(set.down_reason(), "no selected RDMA devices (present: skipme)");
}

TEST_F(DeviceLifecycle, AScanWithNothingNewEmitsNothing) {
    backend.add("rxe0");
    set.scan(kBoot, sink);
    out().clear();
    set.scan(kBoot + std::chrono::seconds(2), sink);
    EXPECT_TRUE(out().empty());
}

TEST_F(DeviceLifecycle, EveryEventIsAckedAndMapped) {
    auto rxe = backend.add("rxe0");
    set.scan(kBoot, sink);
    out().clear();
    rxe->events = {{kPortErr, 1}, {kQpFatal, 0x42}, {55, 0}, {kPortActive, 1}};
    set.on_readable(rxe->fd, kBoot, sink);

    EXPECT_EQ(rxe->delivered, 4);
    EXPECT_EQ(rxe->acks, 4);
    auto events = bodies_of<AsyncEvent>(out());
    ASSERT_EQ(events.size(), 4u);
    EXPECT_EQ(events[0], (AsyncEvent{"rxe0", 1u, AsyncEventType::port_err, std::nullopt}));
    EXPECT_EQ(events[1], (AsyncEvent{"rxe0", std::nullopt, AsyncEventType::qp_fatal, 0x42u}));
    EXPECT_EQ(events[2].type, AsyncEventType::unknown);
    EXPECT_EQ(events[3].type, AsyncEventType::port_active);
    for (const auto& obs : out()) {
        EXPECT_EQ(obs.source, "verbs");
        EXPECT_EQ(obs.time, kBoot);
    }
}

TEST_F(DeviceLifecycle, PortEventsReReadThePortAndItsStateFollows) {
    auto rxe = backend.add("rxe0");
    set.scan(kBoot, sink);
    out().clear();

    rxe->attrs[1].state = 1;  // DOWN
    rxe->attrs[1].phys_state = 3;
    rxe->events = {{kPortErr, 1}};
    set.on_readable(rxe->fd, kBoot, sink);
    ASSERT_EQ(out().size(), 2u);
    EXPECT_TRUE(std::holds_alternative<AsyncEvent>(out()[0].body));
    auto states = bodies_of<PortStateSample>(out());
    ASSERT_EQ(states.size(), 1u);
    EXPECT_EQ(states[0].state, PortState::down);
    EXPECT_TRUE(bodies_of<PKeyTableSample>(out()).empty());

    out().clear();
    rxe->attrs[1].state = 4;
    rxe->events = {{kPortActive, 1}};
    set.on_readable(rxe->fd, kBoot, sink);
    states = bodies_of<PortStateSample>(out());
    ASSERT_EQ(states.size(), 1u);
    EXPECT_EQ(states[0].state, PortState::active);
    EXPECT_EQ(bodies_of<PKeyTableSample>(out()).size(), 1u);
}

TEST_F(DeviceLifecycle, PkeyChangeEmitsTheNewTableRightAfterTheEvent) {
    auto hca = backend.add("mlx5_0");
    set.scan(kBoot, sink);
    out().clear();
    hca->pkeys[1] = {0xffff, 0x8002};
    hca->events = {{kPkeyChange, 1}};
    set.on_readable(hca->fd, kBoot, sink);
    ASSERT_EQ(out().size(), 3u);
    EXPECT_EQ(std::get<AsyncEvent>(out()[0].body).type, AsyncEventType::pkey_change);
    EXPECT_TRUE(std::holds_alternative<PortStateSample>(out()[1].body));
    EXPECT_EQ(std::get<PKeyTableSample>(out()[2].body).table.keys,
              (std::vector<uint16_t>{0xffff, 0x8002}));
}

TEST_F(DeviceLifecycle, UnreadablePkeysAreMarkedAndReported) {
    auto hca = backend.add("mlx5_0");
    hca->unreadable_pkeys = {1};
    set.scan(kBoot, sink);
    auto tables = bodies_of<PKeyTableSample>(out());
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].table.unreadable, (std::vector<uint16_t>{1}));
    EXPECT_EQ(tables[0].table.keys[0], 0xffff);
    auto errors = bodies_of<SampleError>(out());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].subject, "mlx5_0:1 ibv_query_pkey");
    EXPECT_EQ(errors[0].code, 22);
}

TEST_F(DeviceLifecycle, PortEventForAPortTheDeviceDoesNotHaveIsKeptButNotReRead) {
    auto rxe = backend.add("rxe0");
    set.scan(kBoot, sink);
    out().clear();
    rxe->events = {{kPortErr, 9}};
    set.on_readable(rxe->fd, kBoot, sink);
    ASSERT_EQ(out().size(), 1u);
    EXPECT_EQ(std::get<AsyncEvent>(out()[0].body).port, 9u);
}

TEST_F(DeviceLifecycle, DeviceFatalClosesAndTheNextScanReopens) {
    auto hca = backend.add("mlx5_0");
    set.scan(kBoot, sink);
    const int old_fd = hca->fd;
    out().clear();
    hca->events = {{kDeviceFatal, 0}, {kPortErr, 1}};
    set.on_readable(old_fd, kBoot, sink);

    EXPECT_EQ(hca->closes, 1);
    EXPECT_EQ(hca->acks, 1);
    EXPECT_TRUE(set.fds().empty());
    auto events = bodies_of<AsyncEvent>(out());
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].type, AsyncEventType::device_fatal);
    auto status = bodies_of<SourceStatus>(out());
    ASSERT_EQ(status.size(), 1u);
    EXPECT_FALSE(status[0].up);
    EXPECT_EQ(status[0].reason,
              "device context lost: mlx5_0 (DEVICE_FATAL); reopening at the next scan");
    if (auto coverage = coverage_text(status[0])) {
        EXPECT_EQ(*coverage, "");
    }

    out().clear();
    set.scan(kBoot + std::chrono::seconds(2), sink);
    EXPECT_EQ(hca->opens, 2);
    ASSERT_EQ(set.fds().size(), 1u);
    EXPECT_NE(set.fds()[0], old_fd);
    EXPECT_TRUE(bodies_of<SourceStatus>(out()).at(0).up);
    EXPECT_EQ(bodies_of<PortStateSample>(out()).size(), 1u);
}

TEST_F(DeviceLifecycle, AReadErrorClosesTheContext) {
    auto hca = backend.add("mlx5_0");
    set.scan(kBoot, sink);
    out().clear();
    hca->read_error = make_error("ibv_get_async_event: Input/output error", 5);
    set.on_readable(hca->fd, kBoot, sink);
    EXPECT_EQ(hca->closes, 1);
    auto errors = bodies_of<SampleError>(out());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].code, 5);
}

TEST_F(DeviceLifecycle, ADeviceLeavingTheListIsClosedAndComingBackIsReopened) {
    auto rxe = backend.add("rxe0", 1, "uverbs0 a");
    auto other = backend.add("mlx5_0");
    set.scan(kBoot, sink);
    out().clear();

    backend.remove("rxe0");
    set.scan(kBoot + std::chrono::seconds(2), sink);
    EXPECT_EQ(rxe->closes, 1);
    EXPECT_EQ(other->closes, 0);
    EXPECT_EQ(bodies_of<DeviceList>(out()).at(0).devices, (std::vector<std::string>{"mlx5_0"}));
    EXPECT_EQ(bodies_of<SourceStatus>(out()).at(0).reason, "watching async events on mlx5_0:1");

    out().clear();
    auto again = backend.add("rxe0", 1, "uverbs0 a");
    set.scan(kBoot + std::chrono::seconds(4), sink);
    EXPECT_EQ(again->opens, 1);
    EXPECT_EQ(set.fds().size(), 2u);
    EXPECT_EQ(bodies_of<DeviceList>(out()).at(0).devices,
              (std::vector<std::string>{"mlx5_0", "rxe0"}));
}

TEST_F(DeviceLifecycle, TheSameNameWithAnotherIdentityIsANewDevice) {
    auto first = backend.add("rxe0", 1, "uverbs0 a");
    set.scan(kBoot, sink);
    backend.remove("rxe0");
    auto second = backend.add("rxe0", 1, "uverbs1 b");
    set.scan(kBoot + std::chrono::seconds(2), sink);
    EXPECT_EQ(first->closes, 1);
    EXPECT_EQ(second->opens, 1);
    EXPECT_EQ(set.fds(), (std::vector<int>{second->fd}));
}

TEST_F(DeviceLifecycle, OpenFailuresAreReportedOnceAndRetried) {
    auto hca = backend.add("mlx5_0");
    hca->open_error = make_error("ibv_open_device: Permission denied", 13);
    set.scan(kBoot, sink);
    set.scan(kBoot + std::chrono::seconds(2), sink);
    auto errors = bodies_of<SampleError>(out());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].subject, "mlx5_0");
    EXPECT_EQ(errors[0].code, 13);
    EXPECT_EQ(set.down_reason(),
              "cannot open any RDMA device (mlx5_0: ibv_open_device: Permission denied)");

    hca->open_error.reset();
    set.scan(kBoot + std::chrono::seconds(4), sink);
    EXPECT_EQ(hca->opens, 1);
    EXPECT_EQ(set.fds().size(), 1u);
}

TEST_F(DeviceLifecycle, AFailedListingKeepsOpenDevices) {
    auto rxe = backend.add("rxe0");
    set.scan(kBoot, sink);
    out().clear();
    backend.list_error = make_error("ibv_get_device_list: Function not implemented", 38);
    set.scan(kBoot + std::chrono::seconds(2), sink);
    set.scan(kBoot + std::chrono::seconds(4), sink);
    EXPECT_EQ(rxe->closes, 0);
    EXPECT_EQ(bodies_of<SampleError>(out()).size(), 1u);
    EXPECT_TRUE(bodies_of<SourceStatus>(out()).empty());
}

TEST_F(DeviceLifecycle, AFailedListingWithNothingOpenIsTheReason) {
    backend.list_error = make_error("Function not implemented", 38);
    set.scan(kBoot, sink);
    EXPECT_EQ(set.down_reason(), "ibv_get_device_list failed: Function not implemented");
}

TEST_F(DeviceLifecycle, OneWakeupReadsAtMostABoundedNumberOfEvents) {
    auto rxe = backend.add("rxe0");
    set.scan(kBoot, sink);
    for (int i = 0; i < VerbsDeviceSet::kMaxEventsPerWakeup + 10; ++i) {
        rxe->events.push_back({55, 0});
    }
    set.on_readable(rxe->fd, kBoot, sink);
    EXPECT_EQ(rxe->delivered, VerbsDeviceSet::kMaxEventsPerWakeup);
    EXPECT_EQ(rxe->acks, rxe->delivered);
    EXPECT_EQ(rxe->events.size(), 10u);
}

TEST_F(DeviceLifecycle, ClosingAcksAnEventStillHeld) {
    auto rxe = backend.add("rxe0");
    set.scan(kBoot, sink);
    rxe->events = {{kDeviceFatal, 0}};
    set.on_readable(rxe->fd, kBoot, sink);
    EXPECT_EQ(rxe->delivered, 1);
    EXPECT_EQ(rxe->acks, 1);
    EXPECT_FALSE(rxe->pending);
}

TEST_F(DeviceLifecycle, ReadableOnAnUnknownFdIsIgnored) {
    backend.add("rxe0");
    set.scan(kBoot, sink);
    out().clear();
    set.on_readable(12345, kBoot, sink);
    EXPECT_TRUE(out().empty());
}

TEST_F(DeviceLifecycle, RefreshReadsOnePortOrAll) {
    backend.add("mlx5_0", 2);
    set.scan(kBoot, sink);
    out().clear();
    set.refresh(PortRef{"mlx5_0", 2}, kBoot, sink);
    ASSERT_EQ(bodies_of<PortStateSample>(out()).size(), 1u);
    EXPECT_EQ(bodies_of<PKeyTableSample>(out()).at(0).port, (PortRef{"mlx5_0", 2}));
    out().clear();
    set.refresh(PortRef{"mlx5_0", 0}, kBoot, sink);
    EXPECT_EQ(bodies_of<PKeyTableSample>(out()).size(), 2u);
    out().clear();
    set.refresh(PortRef{"mlx5_0", 3}, kBoot, sink);
    set.refresh(PortRef{"nope", 1}, kBoot, sink);
    EXPECT_TRUE(out().empty());
}

TEST_F(DeviceLifecycle, PortQueryFailureIsASampleError) {
    auto hca = backend.add("mlx5_0");
    hca->port_error = make_error("ibv_query_port: No such device", 19);
    set.scan(kBoot, sink);
    auto errors = bodies_of<SampleError>(out());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].subject, "mlx5_0:1 ibv_query_port");
    EXPECT_TRUE(bodies_of<PortStateSample>(out()).empty());
    EXPECT_TRUE(bodies_of<SourceStatus>(out()).at(0).up);
}

TEST(DescribePorts, GroupsRangesPerDevice) {
    EXPECT_EQ(describe_ports({}), "");
    EXPECT_EQ(describe_ports({{"rxe0", 1}}), "rxe0:1");
    EXPECT_EQ(describe_ports({{"b", 3}, {"a", 2}, {"b", 1}, {"b", 2}, {"b", 5}}), "a:2, b:1-3,5");
}

}  // namespace
}  // namespace rdmadiag::verbs
