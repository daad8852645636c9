// The MAD engine against a scripted transport and a manual clock: nothing here sleeps.

#include "collector/sources/mad/mad_engine.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <map>
#include <set>

#include "tests/collector/sources/mad/port_info_request.hpp"

namespace rdmadiag::mad {
namespace {

using namespace std::chrono_literals;

enum class Fate { answer, drop, kernel_timeout, error_status };

class ScriptedTransport final : public MadTransport {
public:
    std::chrono::steady_clock::time_point now{};
    // Decides each send's fate from its target LID and the attempt number for that LID+attr.
    std::function<Fate(uint16_t lid, unsigned attempt)> fate = [](uint16_t, unsigned) {
        return Fate::answer;
    };
    std::vector<uint32_t> tids;
    std::map<uint16_t, unsigned> in_flight, max_in_flight;
    unsigned total_in_flight = 0, max_total = 0;

    Result<void> send(Agent agent, Bytes mad, const MadAddress& addr, int) override {
        uint32_t tid = static_cast<uint32_t>(get64(mad, 8));
        tids.push_back(tid);
        unsigned attempt = ++attempts_[{addr.dlid, get32(mad, 20)}];
        ++in_flight[addr.dlid];
        max_in_flight[addr.dlid] = std::max(max_in_flight[addr.dlid], in_flight[addr.dlid]);
        max_total = std::max(max_total, ++total_in_flight);
        if (mad.size() < 24) return make_error("short MAD");
        std::vector<uint8_t> reply(mad.begin(), mad.end());
        reply.at(3) = static_cast<uint8_t>(reply.at(3) | 0x80);
        switch (fate(addr.dlid, attempt)) {
            case Fate::answer:
                queue_.push_back({agent, 0, reply, addr.dlid});
                break;
            case Fate::error_status:
                reply[5] = 0x1c;
                queue_.push_back({agent, 0, reply, addr.dlid});
                break;
            case Fate::kernel_timeout:
                queue_.push_back(
                    {agent, 110, std::vector<uint8_t>(mad.begin(), mad.end()), addr.dlid});
                break;
            case Fate::drop:
                --in_flight[addr.dlid];
                --total_in_flight;
                break;
        }
        return {};
    }
    Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) override {
        if (queue_.empty()) {
            now += timeout;
            return std::optional<ReceivedMad>{};
        }
        Queued q = std::move(queue_.front());
        queue_.pop_front();
        --in_flight[q.lid];
        --total_in_flight;
        return std::optional<ReceivedMad>{ReceivedMad{q.agent, q.status, std::move(q.mad)}};
    }

private:
    struct Queued {
        Agent agent;
        int status;
        std::vector<uint8_t> mad;
        uint16_t lid;
    };
    std::deque<Queued> queue_;
    std::map<std::pair<uint16_t, uint32_t>, unsigned> attempts_;
};

struct Fixture {
    ScriptedTransport t;
    MadEngine engine;
    explicit Fixture(MadEngineOptions o = {}) : engine(t, o, [this] { return t.now; }) {}
};

TEST(MadEngine, EveryRequestIsAnsweredInOrderWithDistinctTids) {
    Fixture f;
    std::vector<MadRequest> reqs;
    for (uint16_t lid = 1; lid <= 5; ++lid) {
        for (uint8_t p = 1; p <= 3; ++p) reqs.push_back(test::port_info_request(lid, p));
    }
    auto out = f.engine.run(reqs);
    ASSERT_EQ(out.size(), 15u);
    for (size_t i = 0; i < out.size(); ++i) {
        ASSERT_TRUE(out[i].response.ok());
        EXPECT_EQ(get32(*out[i].response, 20), reqs[i].mad[23]) << "answer matched to its request";
        EXPECT_EQ(out[i].attempts, 1u);
    }
    EXPECT_EQ(std::set<uint32_t>(f.t.tids.begin(), f.t.tids.end()).size(), f.t.tids.size());
    EXPECT_EQ(f.engine.stats().answered, 15u);
    EXPECT_EQ(f.engine.stats().retries, 0u);
}

TEST(MadEngine, OutstandingMadsPerTargetAreBounded) {
    MadEngineOptions o;
    o.per_target = 2;
    o.in_flight = 5;
    Fixture f(o);
    std::vector<MadRequest> reqs;
    for (uint8_t p = 0; p < 12; ++p) reqs.push_back(test::port_info_request(9, p));
    for (uint8_t p = 0; p < 12; ++p) reqs.push_back(test::port_info_request(10, p));
    for (uint8_t p = 0; p < 12; ++p) reqs.push_back(test::port_info_request(11, p));
    auto out = f.engine.run(reqs);
    for (const auto& o2 : out) EXPECT_TRUE(o2.response.ok());
    EXPECT_EQ(f.t.max_in_flight[9], 2u);
    EXPECT_EQ(f.t.max_in_flight[10], 2u);
    EXPECT_LE(f.t.max_total, 5u);
    EXPECT_GE(f.t.max_total, 4u) << "several targets are served at once";
}

TEST(MadEngine, ALostMadIsRetried) {
    Fixture f;
    f.t.fate = [](uint16_t lid, unsigned attempt) {
        return lid == 3 && attempt == 1 ? Fate::drop : Fate::answer;
    };
    auto out = f.engine.run({test::port_info_request(3, 1), test::port_info_request(4, 1)});
    ASSERT_TRUE(out[0].response.ok());
    EXPECT_EQ(out[0].attempts, 2u);
    EXPECT_EQ(out[1].attempts, 1u);
    EXPECT_EQ(f.engine.stats().retries, 1u);
    EXPECT_EQ(f.engine.stats().timeouts, 1u);
}

TEST(MadEngine, ATargetThatNeverAnswersCostsOneRequestsAttempts) {
    MadEngineOptions o;
    o.retries = 2;
    o.timeout = 50ms;
    Fixture f(o);
    f.t.fate = [](uint16_t lid, unsigned) { return lid == 7 ? Fate::drop : Fate::answer; };
    std::vector<MadRequest> reqs{test::port_info_request(6, 1)};
    for (uint8_t p = 1; p <= 20; ++p) reqs.push_back(test::port_info_request(7, p));
    reqs.push_back(test::port_info_request(8, 1));
    auto start = f.t.now;
    auto out = f.engine.run(reqs);
    EXPECT_TRUE(out.front().response.ok());
    EXPECT_TRUE(out.back().response.ok());
    unsigned attempts = 0;
    for (size_t i = 1; i <= 20; ++i) {
        ASSERT_FALSE(out[i].response.ok());
        EXPECT_NE(out[i].response.error().message.find("lid 7"), std::string::npos);
        EXPECT_EQ(out[i].response.error().code, ETIMEDOUT);
        attempts += out[i].attempts;
    }
    EXPECT_EQ(f.engine.stats().failed, 20u);
    EXPECT_GE(f.engine.stats().skipped, 18u) << "only what was in flight was tried";
    EXPECT_LE(attempts, 2u * 3u);
    // One request's three timeouts, not twenty requests' sixty.
    EXPECT_LE(f.t.now - start, 4 * 50ms);
}

TEST(MadEngine, ATargetThatAnsweredBeforeIsNotGivenUp) {
    MadEngineOptions o;
    o.timeout = 50ms;
    Fixture f(o);
    ASSERT_TRUE(f.engine.run({test::port_info_request(7, 1)}).front().response.ok());
    f.t.fate = [](uint16_t lid, unsigned) { return lid == 7 ? Fate::drop : Fate::answer; };
    auto out = f.engine.run({test::port_info_request(7, 1), test::port_info_request(7, 2),
                             test::port_info_request(7, 3)});
    for (const auto& r : out) EXPECT_EQ(r.attempts, 3u) << "a node that answered gets every retry";
    EXPECT_EQ(f.engine.stats().skipped, 0u);
}

TEST(MadEngine, KernelReportedTimeoutCountsAsAFailedAttempt) {
    Fixture f;
    f.t.fate = [](uint16_t, unsigned attempt) {
        return attempt == 1 ? Fate::kernel_timeout : Fate::answer;
    };
    auto out = f.engine.run({test::port_info_request(2, 1)});
    ASSERT_TRUE(out[0].response.ok());
    EXPECT_EQ(out[0].attempts, 2u);
    EXPECT_EQ(f.engine.stats().timeouts, 1u);
}

TEST(MadEngine, AnErrorStatusIsAnAnswerNotARetry) {
    Fixture f;
    f.t.fate = [](uint16_t, unsigned) { return Fate::error_status; };
    auto out = f.engine.run({test::port_info_request(2, 1)});
    ASSERT_TRUE(out[0].response.ok()) << "the caller decodes the status";
    EXPECT_FALSE(check_response(*out[0].response).ok());
    EXPECT_EQ(out[0].attempts, 1u);
}

TEST(MadEngine, StrayAnswersAreCountedAndIgnored) {
    class Stray final : public MadTransport {
    public:
        bool sent = false;
        std::vector<uint8_t> last;
        Result<void> send(Agent, Bytes mad, const MadAddress&, int) override {
            last.assign(mad.begin(), mad.end());
            sent = true;
            return {};
        }
        Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds) override {
            if (stray_left-- > 0) {
                std::vector<uint8_t> bogus(256, 0);
                bogus[3] = 0x81;  // an answer (GetResp) to a TID nobody sent
                put64(bogus, 8, 0xdeadbeef);
                return std::optional<ReceivedMad>{ReceivedMad{Agent::smi_lid, 0, bogus}};
            }
            last[3] |= 0x80;
            return std::optional<ReceivedMad>{ReceivedMad{Agent::smi_lid, 0, last}};
        }
        int stray_left = 2;
    } t;
    MadEngine engine(t);
    auto out = engine.run({test::port_info_request(1, 1)});
    EXPECT_TRUE(out[0].response.ok());
    EXPECT_EQ(engine.stats().stray, 2u);
}

TEST(MadEngine, ABrokenTransportFailsWhatIsLeftWithItsReason) {
    class Broken final : public MadTransport {
    public:
        Result<void> send(Agent, Bytes, const MadAddress&, int) override { return {}; }
        Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds) override {
            return make_error("umad fd closed", 9);
        }
    } t;
    MadEngineOptions o;
    o.per_target = 1;
    MadEngine engine(t, o);
    auto out = engine.run({test::port_info_request(1, 1), test::port_info_request(1, 2)});
    for (const auto& r : out) {
        ASSERT_FALSE(r.response.ok());
        EXPECT_EQ(r.response.error().message, "umad fd closed");
    }
}

}  // namespace
}  // namespace rdmadiag::mad
