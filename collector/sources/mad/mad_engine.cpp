#include "collector/sources/mad/mad_engine.hpp"

#include <algorithm>
#include <cerrno>
#include <deque>
#include <map>
#include <unordered_map>

namespace rdmadiag::mad {

namespace {

struct Pending {
    size_t index = 0;
    std::chrono::steady_clock::time_point deadline;
};

}  // namespace

MadEngine::MadEngine(MadTransport& transport, MadEngineOptions options, SteadyClock clock)
    : transport_(transport), options_(options), clock_(std::move(clock)) {
    if (options_.per_target == 0) options_.per_target = 1;
    if (options_.in_flight == 0) options_.in_flight = 1;
}

std::vector<MadOutcome> MadEngine::run(std::vector<MadRequest> requests) {
    std::vector<MadOutcome> out(requests.size());
    // Waiting requests per target, served round-robin so one slow target cannot starve the rest.
    std::map<std::string, std::deque<size_t>> waiting;
    std::map<std::string, unsigned> busy;
    for (size_t i = 0; i < requests.size(); ++i) waiting[requests[i].target].push_back(i);
    std::unordered_map<uint32_t, size_t> by_tid;      // every TID of an unfinished request
    std::unordered_map<size_t, Pending> outstanding;  // request index -> current attempt
    std::unordered_map<size_t, std::vector<uint32_t>> tids_of;
    size_t remaining = requests.size();
    unsigned in_flight = 0;
    const int kernel_timeout = static_cast<int>(options_.timeout.count());

    auto finish = [&](size_t index, Result<std::vector<uint8_t>> result) {
        out[index].response = std::move(result);
        for (uint32_t tid : tids_of[index]) by_tid.erase(tid);
        tids_of.erase(index);
        outstanding.erase(index);
        --busy[requests[index].target];
        --in_flight;
        --remaining;
    };

    auto start = [&](size_t index) {
        MadRequest& req = requests[index];
        uint32_t tid = next_tid_++;
        if (next_tid_ == 0) next_tid_ = 1;
        put64(req.mad, 8, tid);
        ++out[index].attempts;
        ++stats_.sent;
        ++busy[req.target];
        ++in_flight;
        by_tid[tid] = index;
        tids_of[index].push_back(tid);
        outstanding[index] = Pending{index, clock_() + options_.timeout};
        if (auto sent = transport_.send(req.agent, req.mad, req.addr, kernel_timeout); !sent) {
            // A send the transport refuses will not get better by waiting for it.
            ++stats_.failed;
            finish(index, make_error("send to " + req.target + " failed: " + sent.error().message,
                                     sent.error().code));
        }
    };

    auto fill = [&] {
        for (auto& [target, queue] : waiting) {
            while (!queue.empty() && busy[target] < options_.per_target &&
                   in_flight < options_.in_flight) {
                size_t index = queue.front();
                queue.pop_front();
                start(index);
            }
        }
    };

    auto attempt_failed = [&](size_t index, const std::string& why) {
        const MadRequest& req = requests[index];
        if (out[index].attempts <= options_.retries) {
            ++stats_.retries;
            outstanding.erase(index);
            --busy[req.target];
            --in_flight;
            waiting[req.target].push_front(index);
            return;
        }
        ++stats_.failed;
        finish(index, make_error(req.target + ": " + why + " after " +
                                     std::to_string(out[index].attempts) + " attempts",
                                 ETIMEDOUT));
    };

    fill();
    while (remaining > 0) {
        auto now = clock_();
        auto next_deadline = std::chrono::steady_clock::time_point::max();
        for (const auto& [index, p] : outstanding)
            next_deadline = std::min(next_deadline, p.deadline);
        // Nothing outstanding cannot happen with work left (fill() starts what it can), but a
        // wait of "forever" must never be computed from time_point::max().
        auto wait =
            !outstanding.empty() && next_deadline > now
                ? std::chrono::duration_cast<std::chrono::milliseconds>(next_deadline - now) +
                      std::chrono::milliseconds(1)
                : std::chrono::milliseconds(0);
        auto received = transport_.receive(wait);
        if (!received) {
            // The transport itself broke: nothing outstanding can be answered any more.
            for (auto& [target, queue] : waiting) {
                for (size_t index : queue) {
                    out[index].response = received.error();
                    --remaining;
                }
                queue.clear();
            }
            std::vector<size_t> open;
            for (const auto& [index, p] : outstanding) open.push_back(index);
            for (size_t index : open) finish(index, received.error());
            stats_.failed += open.size();
            break;
        }
        if (*received) {
            ReceivedMad& r = **received;
            uint32_t tid = r.mad.size() >= 16 ? static_cast<uint32_t>(get64(r.mad, 8)) : 0;
            auto it = by_tid.find(tid);
            if (it == by_tid.end()) {
                ++stats_.stray;
            } else if (r.status != 0) {
                size_t index = it->second;
                // Only the current attempt's failure counts; an older attempt's is stale.
                if (outstanding.count(index) && tids_of[index].back() == tid) {
                    ++stats_.timeouts;
                    attempt_failed(index,
                                   "no answer (send status " + std::to_string(r.status) + ")");
                }
            } else {
                size_t index = it->second;
                ++stats_.answered;
                if (outstanding.count(index)) {
                    finish(index, std::move(r.mad));
                } else {
                    // An answer to an earlier attempt while the retry waits in the queue.
                    auto& queue = waiting[requests[index].target];
                    std::erase(queue, index);
                    ++busy[requests[index].target];
                    ++in_flight;
                    finish(index, std::move(r.mad));
                }
            }
        }
        now = clock_();
        std::vector<size_t> expired;
        for (const auto& [index, p] : outstanding) {
            if (p.deadline <= now) expired.push_back(index);
        }
        for (size_t index : expired) {
            ++stats_.timeouts;
            attempt_failed(index,
                           "no answer within " + std::to_string(options_.timeout.count()) + "ms");
        }
        fill();
    }
    return out;
}

}  // namespace rdmadiag::mad
