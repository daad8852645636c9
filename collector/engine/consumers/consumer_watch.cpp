#include "collector/engine/consumers/consumer_watch.hpp"

namespace rdmadiag::engine::consumers {

void ConsumerWatch::observe(const Observation& obs, engine::EngineContext& ctx) {
    (void)ctx;
    const auto* inv = std::get_if<ConsumerInventory>(&obs.body);
    if (!inv) return;
    std::vector<std::string> names;
    for (const auto& c : inv->consumers) {
        carriers_.record(inv->device, c, obs.time);
        if (c.kind == ConsumerKind::ipoib) names.push_back(c.name);
    }
    carriers_.keep_only(inv->device, names);
    auto& held = devices_[inv->device];
    // The source sends an unchanged inventory again now and then: only its time moves.
    if (held.inventory != *inv) ++revision_;
    held = Held{*inv, obs.time};
}

void ConsumerWatch::review(const Snapshot& snapshot, engine::EngineContext& ctx) {
    if (devices_.empty()) return;
    HostConsumers host;
    for (const auto& [device, held] : devices_) {
        host.devices.push_back(held.inventory);
        host.read.push_back(held.read);
    }
    infer_indexes(host.devices, snapshot, carriers_, settings_);
    if (!published_ || *published_ != host) {
        published_ = std::make_shared<const HostConsumers>(std::move(host));
        ++revision_;
    }
    const auto findings =
        judge_consumers(published_->devices, snapshot, carriers_, ctx.now(), settings_);
    for (const char* rule : kConsumerRules) {
        std::vector<FindingSubject> keep;
        for (const auto& f : findings) {
            if (f.rule == rule) keep.push_back(f.subject);
        }
        ctx.findings().clear_rule_except(rule, keep, ctx.now());
    }
    for (const auto& f : findings) ctx.findings().raise(f);
}

void ConsumerWatch::contribute(Snapshot& snapshot) const {
    snapshot.consumers = published_;
}

}  // namespace rdmadiag::engine::consumers
