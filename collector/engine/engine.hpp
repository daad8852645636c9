#pragma once
// The engine: single-threaded and deterministic. It consumes observations in time order, keeps all
// state, runs the rules as its clock (the observations' time, or advance()) moves, and publishes
// immutable snapshots. It never reads the wall clock, so a scenario is a unit test.

#include <memory>
#include <vector>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/finding_book.hpp"
#include "collector/engine/inventory.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::engine {

struct EngineLimits {
    InventoryLimits inventory;
    size_t finding_history = 500;
};

class Engine {
public:
    explicit Engine(EngineLimits limits = {});

    void add_module(std::unique_ptr<EngineModule> module);

    // Feeds one observation. An observation older than the engine's clock is applied at the
    // engine's clock: time never goes backwards inside the engine.
    void consume(const Observation& obs);
    // Moves the clock forward without an observation, so grace periods can expire.
    void advance(TimePoint now);

    TimePoint now() const { return now_; }
    // The current state; rebuilt only when something changed since the last call.
    SnapshotPtr snapshot();
    // What a collector publishes after each round: the last snapshot while nothing but the times
    // things were read has moved since it and it is younger than `max_age`, the current state
    // otherwise. A host whose values hold still is then not rebuilt every second only to show
    // that it read them again; the times in what it publishes lag by less than `max_age`.
    SnapshotPtr snapshot_on_change(Duration max_age);
    // Ports the rules want re-read now (PKEY_CHANGE seen, ...); the caller routes them to sources.
    std::vector<PortRef> take_refresh_requests();

    const Inventory& inventory() const { return inventory_; }
    const FindingBook& findings() const { return findings_; }
    uint64_t observations() const { return observations_; }

private:
    void run_ticks();
    // Sum of the modules' and the findings' revisions: changed since the last snapshot when it
    // differs from `published_revision_`.
    uint64_t revision() const;

    EngineLimits limits_;
    Inventory inventory_;
    FindingBook findings_;
    std::vector<std::unique_ptr<EngineModule>> modules_;
    std::vector<PortRef> refresh_;
    TimePoint now_{};
    bool started_ = false;
    bool dirty_ = true;    // anything at all since the last snapshot
    bool changed_ = true;  // more than reading times since the last snapshot
    uint64_t published_revision_ = 0;
    uint64_t sequence_ = 0;
    uint64_t observations_ = 0;
    SnapshotPtr last_;
};

}  // namespace rdmadiag::engine
