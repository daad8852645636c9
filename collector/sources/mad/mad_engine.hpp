#pragma once
// Runs a batch of MADs with many in flight: each gets a TID, a deadline and a retry budget, each
// target (a LID or a directed route) has a bound on its outstanding MADs, and one loop waits on
// the transport for whatever comes back. A MAD that is never answered costs only itself: its
// outcome carries the error and the rest of the batch goes on.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/mad_transport.hpp"

namespace rdmadiag::mad {

struct MadRequest {
    std::string target;  // what the per-target bound counts by, "lid 5", "dr 1,3"
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
    unsigned per_target = 4;                 // outstanding MADs to one target
    unsigned in_flight = 128;                // outstanding MADs in all
};

struct MadEngineStats {
    uint64_t sent = 0;
    uint64_t answered = 0;
    uint64_t timeouts = 0;  // attempts that ran out of time
    uint64_t retries = 0;
    uint64_t failed = 0;  // requests that used up every attempt
    uint64_t stray = 0;   // answers matching no outstanding TID
    bool operator==(const MadEngineStats&) const = default;
};

class MadEngine {
public:
    using SteadyClock = std::function<std::chrono::steady_clock::time_point()>;

    explicit MadEngine(
        MadTransport& transport, MadEngineOptions options = {},
        SteadyClock clock = [] { return std::chrono::steady_clock::now(); });

    // Runs every request to an answer or to its last timeout; outcomes in request order.
    std::vector<MadOutcome> run(std::vector<MadRequest> requests);

    const MadEngineStats& stats() const { return stats_; }
    const MadEngineOptions& options() const { return options_; }

private:
    MadTransport& transport_;
    MadEngineOptions options_;
    SteadyClock clock_;
    MadEngineStats stats_;
    uint32_t next_tid_ = 1;
};

}  // namespace rdmadiag::mad
