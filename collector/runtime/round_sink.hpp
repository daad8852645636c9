#pragma once
// Where sources put a round's observations before the engine takes them, in time order. A round
// is fed in batches of at most `batch_limit` observations: a subnet pass emits about 26 per port
// (300,000 at 12,000 ports, 400 bytes each), and holding all of them until the round ends would
// cost more memory than the engine's whole state. A source's own observations come in time order,
// so a batch boundary changes nothing; an observation older than one already fed is applied at
// the engine's clock, as the engine does with any late observation.

#include <cstdint>
#include <functional>
#include <vector>

#include "collector/sources/source.hpp"

namespace rdmadiag::runtime {

class RoundSink final : public sources::ObservationSink {
public:
    // `feed` takes a batch (sorted stably by time) and leaves it to be cleared.
    RoundSink(size_t batch_limit, std::function<void(std::vector<Observation>&)> feed)
        : limit_(batch_limit), feed_(std::move(feed)) {}

    void emit(Observation obs) override;
    // Feeds what is held.
    void flush();
    // Observations emitted since construction (fed or not).
    uint64_t emitted() const { return emitted_; }

private:
    size_t limit_;
    std::function<void(std::vector<Observation>&)> feed_;
    std::vector<Observation> batch_;
    uint64_t emitted_ = 0;
};

}  // namespace rdmadiag::runtime
