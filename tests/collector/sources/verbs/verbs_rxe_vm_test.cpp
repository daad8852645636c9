// The verbs source on a real soft-RoCE device (rxe0 on dummy netdev dum0), inside the test VM:
// it sees the device as sysfs does, follows the link going down and up through PORT_ERR /
// PORT_ACTIVE, and survives the rxe link being deleted and added again. The collector (sysfs and
// verbs into the default engine) sees the same.

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "collector/sources/verbs/verbs_event_source.hpp"
#include "collector/sources/verbs/verbs_source.hpp"
#include "tests/beds/vm/vm_guest.hpp"
#include "tests/collector/sources/verbs/observation_filters.hpp"

namespace rdmadiag::verbs {
namespace {

using testing::bodies_of;
using Steady = std::chrono::steady_clock;

std::string read_sysfs(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}

class VerbsOnRxe : public ::testing::Test {
protected:
    void SetUp() override {
        if (!vm::in_rxe_vm()) GTEST_SKIP() << vm::kNotInVm;
        sources::SourceSettings settings;
        settings.options.set("verbs.rescan_interval", std::chrono::milliseconds(200), true);
        auto made = make_verbs_source(settings);
        ASSERT_TRUE(made.ok()) << made.error().message;
        source = std::move(made.value());
        verbs = dynamic_cast<VerbsEventSource*>(source.get());
        ASSERT_NE(verbs, nullptr);
        last_poll = Steady::now();
        source->poll(now(), sink);
    }

    static TimePoint now() { return SystemClock().now(); }

    // Runs the collector's loop (poll the async fds, rescan on the source's interval) until
    // `done` holds or `limit` passes. Returns whether it held.
    bool loop_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
        const auto deadline = Steady::now() + limit;
        while (!done()) {
            if (Steady::now() >= deadline) return false;
            std::vector<pollfd> fds;
            for (int fd : source->event_fds()) fds.push_back(pollfd{fd, POLLIN, 0});
            ::poll(fds.data(), fds.size(), 20);
            for (const auto& p : fds) {
                if (p.revents != 0) source->on_readable(p.fd, now(), sink);
            }
            if (Steady::now() - last_poll >= source->poll_interval()) {
                last_poll = Steady::now();
                source->poll(now(), sink);
            }
        }
        return true;
    }

    bool saw_event(AsyncEventType type, size_t from) const {
        for (size_t i = from; i < sink.observations.size(); ++i) {
            const auto* ev = std::get_if<AsyncEvent>(&sink.observations[i].body);
            if (ev && ev->device == "rxe0" && ev->type == type) return true;
        }
        return false;
    }

    std::optional<PortState> last_state() const {
        auto states = bodies_of<PortStateSample>(sink.observations);
        for (auto it = states.rbegin(); it != states.rend(); ++it) {
            if (it->port == PortRef{"rxe0", 1}) return it->state;
        }
        return std::nullopt;
    }

    struct Flap {
        bool seen = false;
        std::chrono::milliseconds total{};  // from starting `ip link set` to the event
        std::chrono::milliseconds
            after_command{};  // from `ip` returning to the event (0 if before)
    };

    // Sets dum0 down or up and waits for the matching event. The link has changed when `ip`
    // returns; the command itself (exec under emulation) is most of `total`.
    Flap flap(const char* updown, AsyncEventType expected) {
        const size_t from = sink.observations.size();
        const auto start = Steady::now();
        const pid_t ip = vm::spawn(std::string("ip link set dum0 ") + updown);
        std::optional<Steady::time_point> ip_done, event_seen;
        int ip_rc = -1;
        loop_until(
            [&] {
                if (!ip_done && vm::exited(ip, ip_rc)) ip_done = Steady::now();
                if (!event_seen && saw_event(expected, from)) event_seen = Steady::now();
                return ip_done && event_seen;
            },
            std::chrono::seconds(10));
        if (!ip_done) vm::wait_for(ip);
        EXPECT_EQ(ip_rc, 0) << "ip link set dum0 " << updown;
        Flap f;
        if (!ip_done || !event_seen) return f;
        using std::chrono::duration_cast;
        using std::chrono::milliseconds;
        f.seen = true;
        f.total = duration_cast<milliseconds>(*event_seen - start);
        f.after_command = *event_seen > *ip_done
                              ? duration_cast<milliseconds>(*event_seen - *ip_done)
                              : milliseconds(0);
        return f;
    }

    std::unique_ptr<sources::Source> source;
    VerbsEventSource* verbs = nullptr;
    sources::VectorSink sink;
    Steady::time_point last_poll;
};

TEST_F(VerbsOnRxe, SeesTheDeviceAsSysfsDoes) {
    EXPECT_TRUE(source->availability().available) << source->availability().reason;
    EXPECT_EQ(verbs->watched_ports(), (std::vector<PortRef>{{"rxe0", 1}}));
    ASSERT_EQ(source->event_fds().size(), 1u);

    auto status = bodies_of<SourceStatus>(sink.observations);
    ASSERT_FALSE(status.empty());
    EXPECT_TRUE(status.back().up);
    EXPECT_EQ(status.back().reason, "watching async events on rxe0:1");

    auto states = bodies_of<PortStateSample>(sink.observations);
    ASSERT_EQ(states.size(), 1u);
    const std::string port_dir = "/sys/class/infiniband/rxe0/ports/1/";
    EXPECT_EQ(states[0].state, PortState::active);
    EXPECT_EQ(read_sysfs(port_dir + "state"), "4: ACTIVE");
    EXPECT_EQ(states[0].link_layer, LinkLayer::ethernet);
    EXPECT_EQ(read_sysfs(port_dir + "link_layer"), "Ethernet");
    ASSERT_TRUE(states[0].rate.has_value());
    EXPECT_EQ(*states[0].rate, read_sysfs(port_dir + "rate"));
    ASSERT_TRUE(states[0].phys_state_text.has_value());
    EXPECT_EQ(std::to_string(*states[0].phys_state) + ": " + *states[0].phys_state_text,
              read_sysfs(port_dir + "phys_state"));

    // rxe has one P_Key, 0xffff at index 0; sysfs prints the same table.
    auto tables = bodies_of<PKeyTableSample>(sink.observations);
    ASSERT_EQ(tables.size(), 1u);
    const PKeyTable& t = tables[0].table;
    EXPECT_TRUE(t.complete());
    ASSERT_FALSE(t.keys.empty());
    EXPECT_EQ(t.keys[0], 0xffff);
    EXPECT_EQ(t.used(), 1u);
    for (size_t i = 0; i < t.keys.size(); ++i) {
        EXPECT_EQ(format_pkey(t.keys[i]), read_sysfs(port_dir + "pkeys/" + std::to_string(i)))
            << "index " << i;
    }
}

TEST_F(VerbsOnRxe, LinkDownUpGivesPortErrThenPortActiveAndTheStateFollows) {
    const Flap down = flap("down", AsyncEventType::port_err);
    ASSERT_TRUE(down.seen) << "no PORT_ERR within 10 s of ip link set dum0 down";
    EXPECT_LT(down.after_command.count(), 1000);
    EXPECT_EQ(last_state(), PortState::down);

    const Flap up = flap("up", AsyncEventType::port_active);
    ASSERT_TRUE(up.seen) << "no PORT_ACTIVE within 10 s of ip link set dum0 up";
    EXPECT_LT(up.after_command.count(), 1000);
    EXPECT_EQ(last_state(), PortState::active);
    std::cout << "PORT_ERR " << down.total.count() << " ms after starting ip link set down ("
              << down.after_command.count() << " ms after it returned), PORT_ACTIVE "
              << up.total.count() << " ms after starting ip link set up ("
              << up.after_command.count() << " ms after it returned)\n";

    auto events = bodies_of<AsyncEvent>(sink.observations);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0], (AsyncEvent{"rxe0", 1u, AsyncEventType::port_err, std::nullopt}));
    EXPECT_EQ(events[1], (AsyncEvent{"rxe0", 1u, AsyncEventType::port_active, std::nullopt}));
}

TEST_F(VerbsOnRxe, SurvivesTheRxeLinkBeingDeletedAndAddedAgain) {
    // rxe cannot take our context away: the deletion waits until the source lets go, which it
    // does at its next scan because the device has left the list.
    const auto start = Steady::now();
    const pid_t del = vm::spawn("rdma link delete rxe0");
    int del_rc = -1;
    ASSERT_TRUE(loop_until([&] { return vm::exited(del, del_rc); }, std::chrono::seconds(10)))
        << "rdma link delete rxe0 still blocked after 10 s";
    EXPECT_EQ(del_rc, 0);
    std::cout
        << "rdma link delete completed after "
        << std::chrono::duration_cast<std::chrono::milliseconds>(Steady::now() - start).count()
        << " ms\n";
    ASSERT_TRUE(loop_until([&] { return source->event_fds().empty(); }, std::chrono::seconds(2)));
    EXPECT_FALSE(source->availability().available);
    EXPECT_EQ(source->availability().reason, "no RDMA devices (ibv_get_device_list returned none)");
    EXPECT_FALSE(bodies_of<SourceStatus>(sink.observations).back().up);
    EXPECT_TRUE(bodies_of<DeviceList>(sink.observations).back().devices.empty());

    ASSERT_EQ(vm::run("rdma link add rxe0 type rxe netdev dum0"), 0);
    ASSERT_TRUE(
        loop_until([&] { return source->event_fds().size() == 1; }, std::chrono::seconds(5)))
        << "rxe0 not reopened within 5 s of rdma link add";
    EXPECT_TRUE(bodies_of<SourceStatus>(sink.observations).back().up);
    EXPECT_EQ(bodies_of<DeviceList>(sink.observations).back().devices,
              (std::vector<std::string>{"rxe0"}));

    // The new context delivers events.
    ASSERT_TRUE(flap("down", AsyncEventType::port_err).seen);
    ASSERT_TRUE(flap("up", AsyncEventType::port_active).seen);
    EXPECT_EQ(last_state(), PortState::active);
}

TEST_F(VerbsOnRxe, TheCollectorSeesRxeThroughSysfsAndVerbs) {
    auto sysfs = sysfs::make_sysfs_source(sources::SourceSettings{});
    ASSERT_TRUE(sysfs.ok()) << sysfs.error().message;
    ASSERT_TRUE(sysfs.value()->availability().available) << sysfs.value()->availability().reason;
    auto engine = engine::make_default_engine();
    engine->advance(now());

    sources::VectorSink from_sysfs;
    dynamic_cast<sysfs::SysfsSource&>(*sysfs.value()).sample_all(now(), from_sysfs);
    // The port as each source reads it: the same state, link layer, rate and P_Key table.
    auto port_of = [](const std::vector<Observation>& obs) {
        auto states = bodies_of<PortStateSample>(obs);
        auto it = std::find_if(states.begin(), states.end(), [](const auto& s) {
            return s.port == PortRef{"rxe0", 1};
        });
        return it == states.end() ? std::optional<PortStateSample>{} : *it;
    };
    auto table_of = [](const std::vector<Observation>& obs) {
        auto tables = bodies_of<PKeyTableSample>(obs);
        auto it = std::find_if(tables.begin(), tables.end(), [](const auto& t) {
            return t.port == PortRef{"rxe0", 1};
        });
        return it == tables.end() ? std::optional<PKeyTable>{} : it->table;
    };
    const auto s_port = port_of(from_sysfs.observations);
    const auto v_port = port_of(sink.observations);
    ASSERT_TRUE(s_port && v_port);
    EXPECT_EQ(s_port->state, v_port->state);
    EXPECT_EQ(s_port->link_layer, v_port->link_layer);
    EXPECT_EQ(s_port->rate, v_port->rate);
    EXPECT_EQ(s_port->phys_state, v_port->phys_state);
    const auto s_table = table_of(from_sysfs.observations);
    const auto v_table = table_of(sink.observations);
    ASSERT_TRUE(s_table && v_table);
    EXPECT_EQ(s_table->keys, v_table->keys);

    for (const auto& obs : from_sysfs.observations) engine->consume(obs);
    for (const auto& obs : sink.observations) engine->consume(obs);
    auto snap = engine->snapshot();
    const DeviceSnapshot* dev = snap->find_device("rxe0");
    ASSERT_NE(dev, nullptr);
    EXPECT_TRUE(dev->present);
    const PortSnapshot* port = snap->find_port(PortRef{"rxe0", 1});
    ASSERT_NE(port, nullptr);
    EXPECT_EQ(port->info.state, PortState::active);
    const PKeyViewState* device_view = port->pkeys.find(PKeyView::device);
    ASSERT_NE(device_view, nullptr);
    EXPECT_EQ(device_view->table.keys.at(0), 0xffff);
    for (const char* name : {"sysfs", "verbs"}) {
        auto it = std::find_if(snap->sources.begin(), snap->sources.end(),
                               [&](const auto& s) { return s.name == name; });
        ASSERT_NE(it, snap->sources.end()) << name;
        EXPECT_TRUE(it->up) << name << ": " << it->reason;
    }

    // A link flap reaches the engine's event log, and the port state it keeps follows.
    const size_t from = sink.observations.size();
    ASSERT_TRUE(flap("down", AsyncEventType::port_err).seen);
    for (size_t i = from; i < sink.observations.size(); ++i) engine->consume(sink.observations[i]);
    snap = engine->snapshot();
    ASSERT_FALSE(snap->events.empty());
    EXPECT_EQ(snap->events.back().source, "verbs");
    EXPECT_EQ(snap->events.back().event.type, AsyncEventType::port_err);
    EXPECT_EQ(snap->find_port(PortRef{"rxe0", 1})->info.state, PortState::down);
    ASSERT_TRUE(flap("up", AsyncEventType::port_active).seen);
}

}  // namespace
}  // namespace rdmadiag::verbs
