#include "collector/engine/source_step.hpp"

#include <algorithm>
#include <vector>

namespace rdmadiag::engine {

namespace {

// Collects one round of observations so the engine sees them in time order.
class OrderedFeed final : public sources::ObservationSink {
public:
    explicit OrderedFeed(Engine& engine) : engine_(engine) {}
    void emit(Observation obs) override { pending_.push_back(std::move(obs)); }

    void drain() {
        std::stable_sort(
            pending_.begin(), pending_.end(),
            [](const Observation& a, const Observation& b) { return a.time < b.time; });
        for (const auto& o : pending_) engine_.consume(o);
        pending_.clear();
    }

private:
    Engine& engine_;
    std::vector<Observation> pending_;
};

}  // namespace

void step_source(sources::Source& source, TimePoint now, Engine& engine) {
    OrderedFeed feed(engine);
    source.poll(now, feed);
    feed.drain();
    for (int round = 0; round < 4; ++round) {
        auto requests = engine.take_refresh_requests();
        if (requests.empty()) break;
        for (const auto& r : requests) source.refresh(r, now, feed);
        feed.drain();
    }
    engine.advance(now);
}

}  // namespace rdmadiag::engine
