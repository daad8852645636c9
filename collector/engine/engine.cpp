#include "collector/engine/engine.hpp"

#include "collector/engine/snapshot_revisions.hpp"

namespace rdmadiag::engine {

Engine::Engine(EngineLimits limits)
    : limits_(limits), inventory_(limits.inventory), findings_(limits.finding_history) {}

void Engine::add_module(std::unique_ptr<EngineModule> module) {
    modules_.push_back(std::move(module));
    dirty_ = true;
    changed_ = true;
}

void Engine::consume(const Observation& obs) {
    if (!started_ || obs.time > now_) {
        now_ = obs.time;
        started_ = true;
    }
    ++observations_;
    if (obs.time == now_) {
        changed_ |= inventory_.observe(obs);
    } else {
        Observation clamped = obs;
        clamped.time = now_;
        changed_ |= inventory_.observe(clamped);
    }
    EngineContext ctx(now_, findings_, inventory_, refresh_);
    for (auto& m : modules_) m->observe(obs, ctx);
    for (auto& m : modules_) m->tick(ctx);
    dirty_ = true;
}

void Engine::advance(TimePoint now) {
    if (started_ && now <= now_) return;
    now_ = now;
    started_ = true;
    run_ticks();
    dirty_ = true;
}

void Engine::run_ticks() {
    EngineContext ctx(now_, findings_, inventory_, refresh_);
    for (auto& m : modules_) m->tick(ctx);
}

uint64_t Engine::revision() const {
    uint64_t sum = findings_.revision();
    for (const auto& m : modules_) sum += m->revision();
    return sum;
}

SnapshotPtr Engine::snapshot_on_change(Duration max_age) {
    const bool young = last_ && now_ - last_->time < max_age;
    if (young && !changed_ && revision() == published_revision_) return last_;
    return snapshot();
}

SnapshotPtr Engine::snapshot() {
    if (!dirty_ && last_) return last_;
    auto snap = std::make_shared<Snapshot>();
    snap->sequence = ++sequence_;
    snap->time = now_;
    std::set<std::string, std::less<>> rebuild;
    for (auto& m : modules_) m->take_changed_devices(rebuild);
    inventory_.fill_devices(*snap, last_.get(), rebuild, [this](PortSnapshot& port) {
        for (const auto& m : modules_) m->contribute_port(port);
    });
    inventory_.fill_records(*snap);
    assign_device_revisions(*snap, last_.get());
    EngineContext ctx(now_, findings_, inventory_, refresh_);
    for (auto& m : modules_) m->review(*snap, ctx);
    for (const auto& m : modules_) m->contribute(*snap);
    snap->findings = findings_.active();
    snap->finding_history.assign(findings_.history().begin(), findings_.history().end());
    assign_section_revisions(*snap, last_.get());
    last_ = std::move(snap);
    dirty_ = false;
    changed_ = false;
    // Taken after review(): findings it raised or cleared are in this snapshot.
    published_revision_ = revision();
    return last_;
}

std::vector<PortRef> Engine::take_refresh_requests() {
    std::vector<PortRef> out;
    out.swap(refresh_);
    return out;
}

}  // namespace rdmadiag::engine
