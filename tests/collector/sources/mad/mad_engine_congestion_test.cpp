// The engine's windows against targets with a queue of their own: each LID serves one MAD per
// `service` time and holds at most `capacity` unanswered MADs; what arrives beyond that is
// dropped, as a switch SMA's short MAD queue does (its VL15Dropped counter rises). A shared
// capacity plays the local port or a simulator all targets go through. The clock is manual.

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <map>
#include <numeric>

#include "collector/sources/mad/mad_engine.hpp"

#include "tests/collector/sources/mad/port_info_request.hpp"

namespace rdmadiag::mad {
namespace {

using namespace std::chrono_literals;
using SteadyTime = std::chrono::steady_clock::time_point;

class QueueingTransport final : public MadTransport {
public:
    SteadyTime now{};
    std::chrono::microseconds service{100};
    unsigned capacity = UINT_MAX;         // per LID
    unsigned shared_capacity = UINT_MAX;  // all LIDs together
    std::map<uint16_t, unsigned> dropped;
    // Per LID and in all: MADs accepted and not yet received back, counting the one being sent.
    std::map<uint16_t, std::vector<unsigned>> outstanding_at_send;
    std::vector<unsigned> total_at_send;

    Result<void> send(Agent agent, Bytes mad, const MadAddress& addr, int) override {
        auto& q = queues_[addr.dlid];
        outstanding_at_send[addr.dlid].push_back(outstanding_[addr.dlid] + 1);
        total_at_send.push_back(total_outstanding_ + 1);
        if (held(q) >= capacity || held_everywhere() >= shared_capacity) {
            ++dropped[addr.dlid];
            return {};
        }
        ++outstanding_[addr.dlid];
        ++total_outstanding_;
        std::vector<uint8_t> reply(mad.begin(), mad.end());
        reply[3] = static_cast<uint8_t>(reply[3] | 0x80);
        const SteadyTime start = q.empty() ? now : std::max(now, q.back().ready);
        q.push_back(Held{start + service, ReceivedMad{agent, 0, std::move(reply)}});
        return {};
    }

    Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) override {
        auto next = queues_.end();
        for (auto it = queues_.begin(); it != queues_.end(); ++it) {
            if (!it->second.empty() &&
                (next == queues_.end() || it->second.front().ready < next->second.front().ready))
                next = it;
        }
        if (next == queues_.end() || next->second.front().ready > now + timeout) {
            now += timeout;
            return std::optional<ReceivedMad>{};
        }
        now = std::max(now, next->second.front().ready);
        ReceivedMad m = std::move(next->second.front().mad);
        next->second.pop_front();
        --outstanding_[next->first];
        --total_outstanding_;
        return std::optional<ReceivedMad>{std::move(m)};
    }

private:
    struct Held {
        SteadyTime ready;
        ReceivedMad mad;
    };
    unsigned held(const std::deque<Held>& q) const {
        return static_cast<unsigned>(
            std::count_if(q.begin(), q.end(), [&](const Held& h) { return h.ready > now; }));
    }
    unsigned held_everywhere() const {
        unsigned n = 0;
        for (const auto& [lid, q] : queues_) n += held(q);
        return n;
    }
    std::map<uint16_t, std::deque<Held>> queues_;
    std::map<uint16_t, unsigned> outstanding_;
    unsigned total_outstanding_ = 0;
};

double mean(const std::vector<unsigned>& v, size_t from) {
    return std::accumulate(v.begin() + static_cast<long>(from), v.end(), 0.0) /
           static_cast<double>(v.size() - from);
}

TEST(MadEngineCongestion, ASwitchThatDropsBeyondItsQueueIsReadCompletely) {
    QueueingTransport t;
    t.capacity = 6;
    MadEngineOptions o;
    o.per_target = 32;  // the ceiling is far above what the switch takes
    MadEngine engine(t, o, [&t] { return t.now; });
    std::vector<MadRequest> reqs;
    for (int i = 0; i < 2000; ++i)
        reqs.push_back(test::port_info_request(5, static_cast<uint8_t>(i % 37)));
    auto out = engine.run(reqs);
    for (const auto& r : out) ASSERT_TRUE(r.response.ok()) << r.response.error().message;
    EXPECT_EQ(engine.stats().failed, 0u) << "no permanent failure";
    EXPECT_GT(t.dropped[5], 0u) << "the window did probe beyond the queue";
    EXPECT_GT(engine.stats().window_cuts, 0u);
    // Settled: over the second half, MADs outstanding at each send average near the queue's 6.
    const auto& at_send = t.outstanding_at_send[5];
    const double settled = mean(at_send, at_send.size() / 2);
    EXPECT_GE(settled, 6 * 0.6);
    EXPECT_LE(settled, 6 + 1.5);
    // Drops are rare once settled, not a constant share of the traffic.
    EXPECT_LT(t.dropped[5], reqs.size() / 10);
}

TEST(MadEngineCongestion, AHealthyTargetIsDrivenToTheCeiling) {
    QueueingTransport t;
    MadEngineOptions o;
    o.per_target = 8;
    MadEngine engine(t, o, [&t] { return t.now; });
    std::vector<MadRequest> reqs;
    for (int i = 0; i < 200; ++i)
        reqs.push_back(test::port_info_request(9, static_cast<uint8_t>(i % 37)));
    auto out = engine.run(reqs);
    for (const auto& r : out) ASSERT_TRUE(r.response.ok());
    const auto& at_send = t.outstanding_at_send[9];
    EXPECT_EQ(*std::max_element(at_send.begin(), at_send.end()), 8u);
    EXPECT_GE(mean(at_send, at_send.size() / 2), 7.0);
    EXPECT_EQ(engine.stats().window_cuts, 0u);
}

TEST(MadEngineCongestion, ASharedBottleneckCutsTheBatchWindow) {
    QueueingTransport t;
    t.shared_capacity = 24;
    t.service = 20us;
    MadEngineOptions o;
    o.per_target = 8;
    o.in_flight = 256;
    MadEngine engine(t, o, [&t] { return t.now; });
    std::vector<MadRequest> reqs;
    for (int i = 0; i < 4000; ++i)
        reqs.push_back(test::port_info_request(static_cast<uint16_t>(1 + i % 100),
                                               static_cast<uint8_t>(i % 37)));
    auto out = engine.run(reqs);
    for (const auto& r : out) ASSERT_TRUE(r.response.ok()) << r.response.error().message;
    EXPECT_GT(engine.stats().batch_window_cuts, 0u);
    const double settled = mean(t.total_at_send, t.total_at_send.size() / 2);
    EXPECT_LE(settled, 24 * 1.5) << "the batch settles near what the shared path takes";
    EXPECT_GE(settled, 24 * 0.5);
}

TEST(MadEngineCongestion, DeadTargetsDoNotThrottleTheRest) {
    QueueingTransport t;
    MadEngineOptions o;
    o.timeout = 50ms;
    // Ten LIDs that never answer: their losses must not cut the batch window.
    class Dead final : public MadTransport {
    public:
        QueueingTransport& inner;
        explicit Dead(QueueingTransport& i) : inner(i) {}
        Result<void> send(Agent agent, Bytes mad, const MadAddress& addr, int ms) override {
            if (addr.dlid > 100) return {};
            return inner.send(agent, mad, addr, ms);
        }
        Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) override {
            return inner.receive(timeout);
        }
    } dead(t);
    MadEngine engine(dead, o, [&t] { return t.now; });
    std::vector<MadRequest> reqs;
    for (int i = 0; i < 3000; ++i)
        reqs.push_back(test::port_info_request(static_cast<uint16_t>(1 + i % 110),
                                               static_cast<uint8_t>(i % 37)));
    auto out = engine.run(reqs);
    size_t failed = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        const bool dead_lid = reqs[i].addr.dlid > 100;
        EXPECT_EQ(out[i].response.ok(), !dead_lid);
        failed += !out[i].response.ok();
    }
    EXPECT_EQ(engine.stats().batch_window_cuts, 0u);
    EXPECT_GT(engine.stats().skipped, failed / 2) << "a dead node's other requests are not tried";
}

}  // namespace
}  // namespace rdmadiag::mad
