#pragma once
// An engine module owns one concern (P_Key coherence, MR health, ...). The engine hands it every
// observation in time order, ticks it as time advances, and asks it to add its part to each
// snapshot. Modules never see the wall clock and never call sources.

#include <set>
#include <string>
#include <vector>

#include "collector/engine/finding_book.hpp"
#include "collector/engine/inventory.hpp"
#include "collector/model/observation.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag::engine {

class EngineContext {
public:
    EngineContext(TimePoint now, FindingBook& findings, const Inventory& inventory,
                  std::vector<PortRef>& refresh_requests)
        : now_(now), findings_(findings), inventory_(inventory), refresh_(refresh_requests) {}

    TimePoint now() const { return now_; }
    FindingBook& findings() { return findings_; }
    const Inventory& inventory() const { return inventory_; }
    // Asks the sources that can to re-read this port now instead of at their next poll.
    void request_refresh(const PortRef& port) { refresh_.push_back(port); }

private:
    TimePoint now_;
    FindingBook& findings_;
    const Inventory& inventory_;
    std::vector<PortRef>& refresh_;
};

class EngineModule {
public:
    virtual ~EngineModule() = default;
    virtual void observe(const Observation& obs, EngineContext& ctx) = 0;
    // Time-driven rules (grace periods, windows) run here.
    virtual void tick(EngineContext& ctx) { (void)ctx; }
    // Judges the fabric as a whole while a snapshot is made: the devices are filled and their
    // revisions set (a device whose state did not change keeps its revision), and findings raised
    // or cleared here are in this snapshot.
    virtual void review(const Snapshot& snapshot, EngineContext& ctx) {
        (void)snapshot;
        (void)ctx;
    }
    // Adds this module's state to a snapshot the inventory has already filled, outside its
    // devices.
    virtual void contribute(Snapshot& snapshot) const = 0;

    // Modules that add to ports (P_Key state) name the devices whose ports they changed since
    // the last snapshot: the engine builds those again, and shares every other device with the
    // last snapshot as it is.
    virtual void take_changed_devices(std::set<std::string, std::less<>>& devices) {
        (void)devices;
    }
    // Adds this module's state to one port of a device being built again.
    virtual void contribute_port(PortSnapshot& port) const { (void)port; }

    // Rises whenever what this module adds to a snapshot changes for a reason the engine does not
    // see otherwise: anything but the times things were read, an observation the inventory
    // counts as a change (events, MR records, a partitions file, a new counter value) and the
    // findings. The engine publishes a new snapshot when it moves (Engine::snapshot_on_change).
    virtual uint64_t revision() const { return 0; }
};

}  // namespace rdmadiag::engine
