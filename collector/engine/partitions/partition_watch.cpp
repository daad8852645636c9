#include "collector/engine/partitions/partition_watch.hpp"

#include "collector/engine/partitions/partition_findings.hpp"
#include "collector/engine/partitions/partition_model.hpp"

namespace rdmadiag::partitions {

void PartitionWatch::observe(const Observation& obs, engine::EngineContext& ctx) {
    (void)ctx;
    const auto* text = std::get_if<PartitionsConfText>(&obs.body);
    // The source hands the file over again after a reload; the same text is the same intent.
    if (!text || intent_text_ == *text) return;
    intent_text_ = *text;
    intent_ = parse_partitions_conf(text->text);
    intent_read_ = obs.time;
    intent_changed_ = true;
}

bool PartitionWatch::fabric_changed(const Snapshot& snapshot) const {
    if (!built_ || snapshot.devices.size() != built_devices_) return true;
    for (const DeviceSnapshot& d : snapshot.devices) {
        if (d.revision > built_sequence_) return true;
    }
    return false;
}

void PartitionWatch::review(const Snapshot& snapshot, engine::EngineContext& ctx) {
    if (!intent_changed_ && !fabric_changed(snapshot)) return;
    ModelOptions options;
    if (intent_text_) options.sm_port_guid = intent_text_->sm_port_guid;
    PartitionModel model = build_partition_model(snapshot, intent_ ? &*intent_ : nullptr, options);
    if (model.intent) {
        model.intent->path = intent_text_->path;
        model.intent->sm_port_guid = intent_text_->sm_port_guid;
        model.intent->read = intent_read_;
    }
    judge_partitions(snapshot, model, settings_, ctx);
    model_ = std::make_shared<const PartitionModel>(std::move(model));
    ++builds_;
    built_ = true;
    built_sequence_ = snapshot.sequence;
    built_devices_ = snapshot.devices.size();
    intent_changed_ = false;
}

void PartitionWatch::contribute(Snapshot& snapshot) const {
    snapshot.partitions = model_;
}

}  // namespace rdmadiag::partitions
