#pragma once
// Keeps the fabric's partitions as the snapshots are made: the partition model of the ports' P_Key
// views and of the SM's intent (partitions.conf, handed over by the partitions source), and the
// partition.* findings judged on it (partition_findings.hpp).
//
// The model is built again only when the intent changed or some device's state did (its revision
// rises with a P_Key view, a port's state or the node's identity, never with counters alone), so a
// fabric whose tables hold still costs one look at each device's revision per snapshot.

#include <memory>
#include <optional>

#include "collector/engine/engine_module.hpp"
#include "collector/engine/partitions/partition_settings.hpp"
#include "collector/model/partition_model.hpp"
#include "collector/model/partitions_conf.hpp"

namespace rdmadiag::partitions {

class PartitionWatch final : public engine::EngineModule {
public:
    explicit PartitionWatch(PartitionSettings settings = {}) : settings_(settings) {}

    void observe(const Observation& obs, engine::EngineContext& ctx) override;
    void review(const Snapshot& snapshot, engine::EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override;

    // How many times the model was built.
    uint64_t builds() const { return builds_; }

private:
    bool fabric_changed(const Snapshot& snapshot) const;

    PartitionSettings settings_;
    std::optional<PartitionsConfText> intent_text_;  // as the source last handed it over
    std::optional<PartitionsConf> intent_;
    TimePoint intent_read_;
    bool intent_changed_ = false;
    bool built_ = false;
    uint64_t built_sequence_ = 0;  // of the snapshot the model was last built from
    size_t built_devices_ = 0;
    std::shared_ptr<const PartitionModel> model_;
    uint64_t builds_ = 0;
};

}  // namespace rdmadiag::partitions
