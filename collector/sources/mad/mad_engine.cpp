#include "collector/sources/mad/mad_engine.hpp"

#include <algorithm>
#include <cerrno>
#include <deque>
#include <unordered_map>

#include "collector/sources/mad/mad_window.hpp"

namespace rdmadiag::mad {

MadEngineStats& MadEngineStats::operator+=(const MadEngineStats& o) {
    sent += o.sent;
    answered += o.answered;
    timeouts += o.timeouts;
    presumed_lost += o.presumed_lost;
    retries += o.retries;
    failed += o.failed;
    skipped += o.skipped;
    stray += o.stray;
    unsolicited += o.unsolicited;
    window_cuts += o.window_cuts;
    batch_window_cuts += o.batch_window_cuts;
    peak_in_flight = std::max(peak_in_flight, o.peak_in_flight);
    return *this;
}

namespace {

using SteadyTime = std::chrono::steady_clock::time_point;
constexpr uint32_t kNone = UINT32_MAX;

struct Target {
    explicit Target(const MadEngineOptions& o) : window(o.per_target, o.initial_per_target) {}
    MadWindow window;
    std::deque<uint32_t> waiting;  // request indexes, retries in front
    std::vector<uint32_t> flight;  // outstanding attempts in send order (at most the window)
    uint32_t undelivered = kNone;  // its first request not yet handed to the caller
    bool in_ring = false;
    bool answered = false;         // anything at all in this batch
    bool given_up = false;         // answered nothing and one request used every attempt
    uint64_t answered_serial = 0;  // send serial when the target last answered
    uint64_t lost = 0;             // its losses counted in the batch's answering_losses_
};

struct RequestState {
    uint32_t target = 0;
    uint32_t next_of_target = kNone;  // the target's next request, in request order
    uint32_t attempt = kNone;         // index into the attempt table of the outstanding attempt
    bool done = false;
    uint8_t free_resends = 0;  // lost attempts that did not use up a retry
};

// An attempt lost to congestion (its target went on answering other MADs, or targets that answer
// lost MADs meanwhile) was dropped by a full queue, not by a dead node: it is sent again without
// using up a retry, up to this many times, so that congestion costs time but not data and
// nothing loops forever.
constexpr uint8_t kFreeResends = 8;

struct Attempt {
    uint32_t request = 0;
    uint64_t serial = 0;  // send order, for the windows' one-cut-per-event rule
    SteadyTime deadline;
    uint8_t overtaken = 0;     // answers to later MADs of the same target and agent
    uint64_t others_lost = 0;  // losses at other answering targets when it left
};

// An SMA or PMA answers its MADs in the order they came, and MADs to one LID share one path: when
// three MADs sent after this one have been answered, this one was dropped (a full SMA queue)
// rather than delayed. Declaring it lost then, instead of after its timeout, is what lets the
// window track a queue that is short compared to the timeout (TCP's fast retransmit, for the
// same reason). A wrong guess costs one duplicate MAD; the late answer is still taken.
constexpr uint8_t kOvertakesForLoss = 3;

// The first TID of a batch: the batch's TIDs must not wrap (they index its attempt table) and
// never include 0 (the TID of a MAD too short to carry one).
uint32_t fresh_tids(uint32_t& next_tid, size_t requests, unsigned retries) {
    const uint64_t most = static_cast<uint64_t>(requests) * (retries + 1ull);
    if (next_tid == 0 || UINT32_MAX - next_tid < most) next_tid = 1;
    return next_tid;
}

// A MAD the transport received that nobody here asked for: a request method, not our own send
// given back (which carries a request method too, with a non-zero status).
bool is_unsolicited(const ReceivedMad& r) {
    return r.status == 0 && r.mad.size() >= 4 && (r.mad[3] & 0x80) == 0;
}

// Hands an unsolicited MAD to its handler; true when `r` was one.
bool take_unsolicited(const ReceivedMad& r, MadEngineStats& stats,
                      const MadEngine::OnUnsolicited& handler) {
    if (!is_unsolicited(r)) return false;
    ++stats.unsolicited;
    if (handler) handler(r);
    return true;
}

// One run() of the engine: every structure is sized by the batch and touched O(1) per MAD.
class BatchRun {
public:
    BatchRun(MadTransport& transport, const MadEngineOptions& options,
             MadEngine::SteadyClock& clock, MadEngineStats& stats, uint32_t& next_tid,
             std::unordered_set<std::string>& answered, std::deque<MadRequest>& requests,
             const MadEngine::OnOutcome& on_outcome, const MadEngine::OnUnsolicited& unsolicited)
        : transport_(transport),
          options_(options),
          clock_(clock),
          stats_(stats),
          next_tid_(next_tid),
          answered_(answered),
          requests_(requests),
          on_outcome_(on_outcome),
          on_unsolicited_(unsolicited),
          out_(requests.size()),
          state_(requests.size()),
          window_(options.in_flight, options.initial_in_flight),
          first_tid_(fresh_tids(next_tid, requests.size(), options.retries)) {
        std::unordered_map<std::string_view, uint32_t> ids;
        std::vector<uint32_t> last_of_target;
        for (uint32_t i = 0; i < requests.size(); ++i) {
            auto [it, inserted] = ids.try_emplace(requests[i].target, targets_.size());
            if (inserted) {
                targets_.emplace_back(options_);
                targets_.back().answered = answered_.count(requests[i].target) > 0;
                targets_.back().undelivered = i;
                last_of_target.push_back(i);
            } else {
                state_[last_of_target[it->second]].next_of_target = i;
                last_of_target[it->second] = i;
            }
            state_[i].target = it->second;
            targets_[it->second].waiting.push_back(i);
        }
        for (uint32_t t = 0; t < targets_.size(); ++t) make_ready(t);
        remaining_ = requests.size();
    }

    void run() {
        fill();
        while (remaining_ > 0) {
            auto received = transport_.receive(wait_time());
            if (!received) {
                fail_everything(received.error());
                break;
            }
            if (*received) take(**received);
            expire(clock_());
            fill();
        }
    }

private:
    // A target goes into the ring when it has work and room; the ring serves targets in turn,
    // one MAD each, so a target with many requests cannot starve the others.
    void make_ready(uint32_t t) {
        Target& target = targets_[t];
        if (!target.in_ring && !target.waiting.empty() &&
            target.flight.size() < target.window.limit()) {
            target.in_ring = true;
            ring_.push_back(t);
        }
    }

    void fill() {
        while (!ring_.empty() && in_flight_ < window_.limit()) {
            const uint32_t t = ring_.front();
            ring_.pop_front();
            Target& target = targets_[t];
            target.in_ring = false;
            while (!target.waiting.empty() && state_[target.waiting.front()].done)
                target.waiting.pop_front();  // answered by an earlier attempt meanwhile
            if (target.waiting.empty() || target.flight.size() >= target.window.limit()) continue;
            const uint32_t index = target.waiting.front();
            target.waiting.pop_front();
            start(index);
            make_ready(t);
        }
    }

    void start(uint32_t index) {
        MadRequest& req = requests_[index];
        RequestState& st = state_[index];
        Target& target = targets_[st.target];
        const uint32_t tid = next_tid_++;
        put64(req.mad, 8, tid);
        ++out_[index].attempts;
        ++stats_.sent;
        ++in_flight_;
        stats_.peak_in_flight = std::max(stats_.peak_in_flight, in_flight_);
        st.attempt = static_cast<uint32_t>(attempts_.size());
        attempts_.push_back(
            Attempt{index, serial_++, clock_() + options_.timeout, 0, others_lost(target)});
        target.flight.push_back(st.attempt);
        deadlines_.push_back(st.attempt);
        if (auto sent = transport_.send(req.agent, req.mad, req.addr,
                                        static_cast<int>(options_.timeout.count()));
            !sent) {
            // A send the transport refuses will not get better by waiting for it.
            ++stats_.failed;
            finish(index, make_error("send to " + req.target + " failed: " + sent.error().message,
                                     sent.error().code));
        }
    }

    // The attempt a TID was sent for, if it belongs to this batch.
    uint32_t attempt_of(uint32_t tid) const {
        const uint32_t offset = tid - first_tid_;  // an earlier batch's TID wraps to a huge offset
        return offset < attempts_.size() ? offset : kNone;
    }

    void take(ReceivedMad& r) {
        if (take_unsolicited(r, stats_, on_unsolicited_)) return;
        const uint32_t tid = r.mad.size() >= 16 ? static_cast<uint32_t>(get64(r.mad, 8)) : 0;
        const uint32_t a = attempt_of(tid);
        if (a == kNone || state_[attempts_[a].request].done) {
            ++stats_.stray;
            return;
        }
        const uint32_t index = attempts_[a].request;
        RequestState& st = state_[index];
        if (r.status != 0) {
            // Only the current attempt's failure counts; an older attempt's is stale.
            if (st.attempt == a) {
                ++stats_.timeouts;
                attempt_failed(index, "no answer (send status " + std::to_string(r.status) + ")");
            }
            return;
        }
        ++stats_.answered;
        Target& target = targets_[st.target];
        if (!target.answered) {
            target.answered = true;
            answered_.insert(requests_[index].target);
        }
        target.answered_serial = serial_;
        target.window.on_answer();
        window_.on_answer();
        const std::vector<uint32_t> lost = overtaken_by(a);
        // An answer to an earlier attempt is as good as one to the current attempt; a request
        // whose retry still waits in its target's queue is skipped there when its turn comes.
        finish(index, std::move(r.mad));
        for (uint32_t request : lost) {
            if (state_[request].done) continue;
            ++stats_.presumed_lost;
            attempt_failed(request, "no answer while later MADs were answered");
        }
    }

    // The requests whose outstanding attempt the answer to attempt `a` has overtaken for the
    // kOvertakesForLoss-th time.
    std::vector<uint32_t> overtaken_by(uint32_t a) {
        std::vector<uint32_t> lost;
        const uint32_t index = attempts_[a].request;
        const Agent agent = requests_[index].agent;
        for (uint32_t e : targets_[state_[index].target].flight) {
            Attempt& earlier = attempts_[e];
            if (earlier.request == index || earlier.serial >= attempts_[a].serial) continue;
            if (requests_[earlier.request].agent != agent) continue;
            if (++earlier.overtaken == kOvertakesForLoss) lost.push_back(earlier.request);
        }
        return lost;
    }

    void expire(SteadyTime now) {
        while (!deadlines_.empty() && attempts_[deadlines_.front()].deadline <= now) {
            const uint32_t a = deadlines_.front();
            deadlines_.pop_front();
            const uint32_t index = attempts_[a].request;
            if (state_[index].done || state_[index].attempt != a) continue;  // settled already
            ++stats_.timeouts;
            attempt_failed(index,
                           "no answer within " + std::to_string(options_.timeout.count()) + "ms");
        }
    }

    std::chrono::milliseconds wait_time() const {
        if (!ring_.empty() && in_flight_ < window_.limit()) return std::chrono::milliseconds(0);
        // Stale entries at the front only shorten the wait; the loop skips them after.
        if (deadlines_.empty()) return std::chrono::milliseconds(0);
        const auto now = clock_();
        const auto deadline = attempts_[deadlines_.front()].deadline;
        if (deadline <= now) return std::chrono::milliseconds(0);
        return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) +
               std::chrono::milliseconds(1);
    }

    uint64_t others_lost(const Target& target) const { return answering_losses_ - target.lost; }

    void release(uint32_t index) {
        RequestState& st = state_[index];
        if (st.attempt == kNone) return;
        std::erase(targets_[st.target].flight, st.attempt);
        st.attempt = kNone;
        --in_flight_;
    }

    void finish(uint32_t index, Result<std::vector<uint8_t>> result) {
        release(index);
        RequestState& st = state_[index];
        st.done = true;
        out_[index].response = std::move(result);
        --remaining_;
        make_ready(st.target);
        deliver(st.target);
    }

    // Hands a target's finished requests to the caller in request order (a PortCountersExtended
    // answer must not be handled before the same port's PortCounters), and frees each answer
    // as it goes: a batch never holds more answers than its targets' windows.
    void deliver(uint32_t t) {
        Target& target = targets_[t];
        while (target.undelivered != kNone && state_[target.undelivered].done) {
            const uint32_t index = target.undelivered;
            target.undelivered = state_[index].next_of_target;
            on_outcome_(index, std::move(out_[index]));
            out_[index] = MadOutcome{};
        }
    }

    void attempt_failed(uint32_t index, const std::string& why) {
        const uint32_t a = state_[index].attempt;
        const uint64_t sent_serial = attempts_[a].serial;
        const uint32_t t = state_[index].target;
        Target& target = targets_[t];
        // Lost while the target answered other MADs, or while targets that answer lost MADs too:
        // a full queue somewhere, not a dead node.
        const bool congested =
            target.answered_serial > sent_serial || others_lost(target) > attempts_[a].others_lost;
        release(index);
        if (target.window.on_loss(sent_serial, serial_)) ++stats_.window_cuts;
        // Losses at two targets that do answer point at the path they share (the local port, the
        // kernel's queues, a simulator): the batch's window is cut too. A dead target's losses
        // say nothing about that path, so they never count here.
        if (target.answered) {
            ++answering_losses_;
            ++target.lost;
        }
        if (target.answered && sent_serial >= batch_cut_serial_) {
            if (lossy_target_ != kNone && lossy_target_ != t) {
                if (window_.on_loss(sent_serial, serial_)) ++stats_.batch_window_cuts;
                batch_cut_serial_ = serial_;
                lossy_target_ = kNone;
            } else {
                lossy_target_ = t;
            }
        }
        const MadRequest& req = requests_[index];
        RequestState& st = state_[index];
        const bool free = congested && st.free_resends < kFreeResends;
        st.free_resends += free;
        if ((free || out_[index].attempts - st.free_resends <= options_.retries) &&
            !target.given_up) {
            ++stats_.retries;
            target.waiting.push_front(index);
            make_ready(t);
            return;
        }
        ++stats_.failed;
        finish(index, make_error(req.target + ": " + why + " after " +
                                     std::to_string(out_[index].attempts) + " attempts",
                                 ETIMEDOUT));
        if (!target.answered && !target.given_up) give_up(t);
    }

    // The target has answered nothing and one of its requests used every attempt: its other
    // requests would each wait out the same timeouts for nothing.
    void give_up(uint32_t t) {
        Target& target = targets_[t];
        target.given_up = true;
        for (uint32_t index : target.waiting) {
            if (state_[index].done) continue;
            ++stats_.failed;
            ++stats_.skipped;
            finish(index, make_error(requests_[index].target +
                                         ": not asked, the target answered no earlier request",
                                     ETIMEDOUT));
        }
        target.waiting.clear();
        // What is in flight already finishes by itself (an answer, or its own timeouts).
    }

    void fail_everything(const Error& error) {
        // The transport itself broke: nothing outstanding can be answered any more.
        for (uint32_t index = 0; index < state_.size(); ++index) {
            if (state_[index].done) continue;
            if (state_[index].attempt != kNone) ++stats_.failed;
            finish(index, error);
        }
    }

    MadTransport& transport_;
    const MadEngineOptions& options_;
    MadEngine::SteadyClock& clock_;
    MadEngineStats& stats_;
    uint32_t& next_tid_;
    std::unordered_set<std::string>& answered_;
    std::deque<MadRequest>& requests_;
    const MadEngine::OnOutcome& on_outcome_;
    const MadEngine::OnUnsolicited& on_unsolicited_;
    std::vector<MadOutcome> out_;
    std::vector<RequestState> state_;
    std::vector<Target> targets_;
    std::deque<uint32_t> ring_;
    std::vector<Attempt> attempts_;
    std::deque<uint32_t> deadlines_;  // attempt indexes in send order, which is deadline order
    MadWindow window_;
    uint32_t first_tid_;
    uint64_t serial_ = 0;
    uint64_t batch_cut_serial_ = 0;
    uint32_t lossy_target_ = kNone;
    uint64_t answering_losses_ = 0;
    unsigned in_flight_ = 0;
    size_t remaining_ = 0;
};

}  // namespace

MadEngine::MadEngine(MadTransport& transport, MadEngineOptions options, SteadyClock clock)
    : transport_(transport), options_(options), clock_(std::move(clock)) {
    options_.per_target = std::max(1u, options_.per_target);
    options_.in_flight = std::max(1u, options_.in_flight);
    options_.initial_per_target = std::clamp(options_.initial_per_target, 1u, options_.per_target);
    options_.initial_in_flight = std::clamp(options_.initial_in_flight, 1u, options_.in_flight);
}

void MadEngine::run(std::deque<MadRequest>& requests, const OnOutcome& on_outcome) {
    if (requests.empty()) return;
    BatchRun(transport_, options_, clock_, stats_, next_tid_, answered_, requests, on_outcome,
             on_unsolicited_)
        .run();
}

Result<void> MadEngine::receive_waiting() {
    for (;;) {
        auto received = RDMADIAG_TRY(transport_.receive(std::chrono::milliseconds(0)));
        if (!received) return {};
        if (!take_unsolicited(*received, stats_, on_unsolicited_)) ++stats_.stray;
    }
}

std::vector<MadOutcome> MadEngine::run(std::vector<MadRequest> requests) {
    std::deque<MadRequest> queue(std::make_move_iterator(requests.begin()),
                                 std::make_move_iterator(requests.end()));
    std::vector<MadOutcome> out(queue.size());
    run(queue, [&out](size_t index, MadOutcome outcome) { out[index] = std::move(outcome); });
    return out;
}

}  // namespace rdmadiag::mad
