// The sysfs source's counter tiers seen by the engine: counters move between polls, the two tiers
// are read on their own cadences, the source is rebuilt with other intervals (a reload), and no
// counter's total ever goes backwards; mlx4's 64-bit counters count every byte across all of it.

#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sources/counter_tiers.hpp"
#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;
using std::chrono::seconds;

using CounterKey = std::tuple<std::string, uint32_t, CounterKind, std::string>;

std::map<CounterKey, CounterState> counters_of(const Snapshot& snap) {
    std::map<CounterKey, CounterState> out;
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            for (const auto& c : p.counters) {
                out[{p.ref.device, p.ref.port, c.kind, c.name}] = c;
            }
        }
    }
    return out;
}

class Tree {
public:
    Tree() {
        tmp_.add_fixture("mlx4-i40iw");
        tmp_.add_fixture("mlx5-ib");
    }
    const std::string& root() const { return tmp_.path(); }
    void write(const std::string& relative, uint64_t value) {
        std::ofstream(root() + "/class/infiniband/" + relative) << value << "\n";
    }

private:
    test::TempTree tmp_;
};

TEST(SysfsTiersEngine, NoTotalGoesBackwardsAcrossTiersAndAReload) {
    Tree tree;
    auto engine = engine::make_default_engine();
    sources::SourceSettings s;
    s.sysfs_root = tree.root();
    s.counter_interval = seconds(1);
    s.slow_counter_interval = seconds(5);
    s.pkey_interval = seconds(10);
    auto src = std::make_unique<SysfsSource>(s, std::make_unique<PosixSysfsReader>());

    const uint64_t xmit0 = 48318382080ULL;  // mlx4_0 counters_ext/port_xmit_data_64
    const uint64_t step = 3000000000ULL;    // more than a 32-bit counter holds, every second
    uint64_t symbol = 3;                    // mlx5_0 counters/symbol_error
    std::map<CounterKey, CounterState> before;
    std::map<CounterKey, TimePoint> read_at;
    for (int t = 0; t <= 40; ++t) {
        if (t == 20) {
            // A reload: a new source with another slow interval, the same engine.
            s.slow_counter_interval = seconds(7);
            src = std::make_unique<SysfsSource>(s, std::make_unique<PosixSysfsReader>());
        }
        const TimePoint now = at(seconds(1000 + t));
        tree.write("mlx4_0/ports/1/counters_ext/port_xmit_data_64", xmit0 + step * t);
        // The 32-bit file it extends sits saturated; it must never be taken for the counter.
        tree.write("mlx4_0/ports/1/counters/port_xmit_data", 4294967295ULL);
        tree.write("mlx5_0/ports/1/counters/symbol_error", symbol += 2);
        // P_Key violations on mlx5_0 every second; mlx4_0's stand still.
        tree.write("mlx5_0/ports/1/counters/port_rcv_constraint_errors", t % 256);
        tree.write("mlx5_0/ports/1/hw_counters/out_of_buffer", 17 + 5 * t);
        // The 16-bit VL15_dropped goes back once (a clear by a performance manager).
        tree.write("mlx5_0/ports/1/counters/VL15_dropped", t < 30 ? 100 + t : t - 30);

        sources::VectorSink sink;
        src->poll(now, sink);
        for (const auto& obs : sink.observations) engine->consume(obs);
        for (const auto& c : all<CounterSample>(sink.observations)) {
            read_at[{c.port.device, c.port.port, c.kind, c.name}] = now;
        }
        engine->advance(now);
        auto after = counters_of(*engine->snapshot());
        for (const auto& [key, c] : after) {
            auto it = before.find(key);
            if (it == before.end()) continue;
            EXPECT_GE(c.total, it->second.total) << std::get<3>(key) << " at t=" << t;
        }
        // What each poll reported: every counter a slow poll reads, and a counter a fast poll
        // reads when it moved since it was last reported. The counters findings read are read
        // in every poll: mlx5_0's P_Key violations, which rise every second, are reported in
        // every poll. Its symbol errors and VL15 drops move every second too: each source sees
        // them at its second slow poll (5; 27 after the reload) and reads the narrow counters
        // every poll from then on, reporting the two that move. The rest stand still: slow
        // polls only.
        const bool slow_poll = t < 20 ? t % 5 == 0 : (t - 20) % 7 == 0;
        const bool mlx5_moving = (t >= 5 && t < 20) || t >= 27;
        for (const auto& [key, c] : after) {
            const auto& [device, port, kind, name] = key;
            const auto reason = sources::fast_reason(kind, name);
            if (!reason) continue;
            const bool reported = read_at[key] == now;
            const bool moves = device == "mlx5_0" && kind == CounterKind::pma &&
                               (name == "symbol_error" || name == "VL15_dropped");
            if (device == "mlx5_0" && name == "port_rcv_constraint_errors") {
                EXPECT_TRUE(reported) << device << " " << name << " at t=" << t;
            } else if (moves) {
                EXPECT_EQ(reported, slow_poll || mlx5_moving)
                    << device << " " << name << " at t=" << t;
            } else if (kind == CounterKind::pma) {
                EXPECT_EQ(reported, slow_poll) << device << " " << name << " at t=" << t;
            }
        }
        before = std::move(after);
    }

    const auto& xmit = before.at({"mlx4_0", 1, CounterKind::pma, "port_xmit_data"});
    EXPECT_EQ(xmit.width, 64);
    EXPECT_EQ(xmit.resets, 0u);
    EXPECT_EQ(xmit.wraps, 0u);
    // The last slow read before t=40 after the reload: the source was rebuilt at t=20, so its
    // slow tier was due at 20, 27, 34 (and 41).
    EXPECT_EQ(xmit.raw, xmit0 + step * 34);
    EXPECT_EQ(xmit.total, xmit0 + step * 34);  // every byte since the first reading
    EXPECT_FALSE(xmit.saturated);

    const auto& sym = before.at({"mlx5_0", 1, CounterKind::pma, "symbol_error"});
    EXPECT_EQ(sym.raw, 3u + 2u * 41u);
    EXPECT_EQ(sym.total, 3u + 2u * 41u);

    const auto& vl15 = before.at({"mlx5_0", 1, CounterKind::pma, "VL15_dropped"});
    EXPECT_EQ(vl15.resets, 1u);
    EXPECT_EQ(vl15.total, 129u + 10u);  // up to 100 + 29, then 0..10 after the clear

    const auto& oob = before.at({"mlx5_0", 1, CounterKind::hw, "out_of_buffer"});
    EXPECT_EQ(oob.raw, 17u + 5u * 34u);
}

}  // namespace
}  // namespace rdmadiag::sysfs
