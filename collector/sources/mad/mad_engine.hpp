#pragma once
// Runs a batch of MADs with many in flight: each gets a TID, a deadline and a retry budget, each
// target (a LID or a directed route) has an adaptive bound on its outstanding MADs (MadWindow),
// the whole batch another, and one loop waits on the transport for whatever comes back. A MAD
// that is never answered costs only itself: its outcome carries the error and the rest of the
// batch goes on. A target that has answered nothing at all (in any batch of this engine) costs
// one request's attempts: once one of its requests has used every attempt, its other requests
// fail at once instead of each waiting out its own timeouts.
//
// A MAD that arrives unasked (a request method: the SA's Report of a trap) is never taken for an
// answer, whatever its TID: it goes to the unsolicited handler, during a batch or between them.
//
// Every step is O(1) amortized per MAD whatever the batch size: targets with work and room are
// kept in a ready ring, attempts in a deadline queue (every attempt has the same timeout, so send
// order is deadline order), and TIDs are offsets into the batch's attempt table.

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/mad_transport.hpp"

namespace rdmadiag::mad {

struct MadRequest {
    std::string target;  // what the per-target window counts by, "lid 5", "dr 1,3"
    Agent agent = Agent::smi_lid;
    MadAddress addr;
    std::array<uint8_t, kMadSize> mad{};  // TID bytes are set by the engine
};

struct MadOutcome {
    Result<std::vector<uint8_t>> response = make_error("not run");
    unsigned attempts = 0;
};

struct MadEngineOptions {
    std::chrono::milliseconds timeout{200};  // per attempt
    unsigned retries = 2;                    // attempts = retries + 1
    unsigned per_target = 4;                 // ceiling of one target's window
    unsigned in_flight = 128;                // ceiling of the batch's window
    unsigned initial_per_target = 2;         // a target's window before its first answer
    unsigned initial_in_flight = 32;         // the batch's window before its first answer
};

struct MadEngineStats {
    uint64_t sent = 0;
    uint64_t answered = 0;
    uint64_t timeouts = 0;       // attempts that ran out of time
    uint64_t presumed_lost = 0;  // attempts given up early: later MADs to the target were answered
    uint64_t retries = 0;
    uint64_t failed = 0;             // requests that used up every attempt, or were given up
    uint64_t skipped = 0;            // requests given up because their target answered nothing
    uint64_t stray = 0;              // answers matching no outstanding TID
    uint64_t unsolicited = 0;        // MADs that asked something of us (an SA Report), not answers
    uint64_t window_cuts = 0;        // target windows halved after a loss
    uint64_t batch_window_cuts = 0;  // batch windows halved after losses at several targets
    unsigned peak_in_flight = 0;
    bool operator==(const MadEngineStats&) const = default;
    MadEngineStats& operator+=(const MadEngineStats& o);  // peak_in_flight: the larger
};

class MadEngine {
public:
    using SteadyClock = std::function<std::chrono::steady_clock::time_point()>;

    explicit MadEngine(
        MadTransport& transport, MadEngineOptions options = {},
        SteadyClock clock = [] { return std::chrono::steady_clock::now(); });

    using OnOutcome = std::function<void(size_t index, MadOutcome outcome)>;

    // Runs every request to an answer or to its last timeout, handing each outcome over as soon
    // as it and every earlier request to the same target are done (so one target's outcomes
    // come in request order; different targets' interleave).
    void run(std::deque<MadRequest>& requests, const OnOutcome& on_outcome);
    // The same, with every outcome collected, in request order.
    std::vector<MadOutcome> run(std::vector<MadRequest> requests);

    // Who takes MADs that arrive unasked; without one they are dropped (and counted).
    using OnUnsolicited = std::function<void(const ReceivedMad&)>;
    void on_unsolicited(OnUnsolicited handler) { on_unsolicited_ = std::move(handler); }
    // Takes every MAD already waiting, without waiting for more: unsolicited ones go to the
    // handler, late answers to an earlier batch are strays. Fails when the transport does.
    Result<void> receive_waiting();

    const MadEngineStats& stats() const { return stats_; }
    const MadEngineOptions& options() const { return options_; }

private:
    MadTransport& transport_;
    MadEngineOptions options_;
    SteadyClock clock_;
    MadEngineStats stats_;
    uint32_t next_tid_ = 1;
    std::unordered_set<std::string> answered_;  // targets that answered in any batch
    OnUnsolicited on_unsolicited_;
};

}  // namespace rdmadiag::mad
