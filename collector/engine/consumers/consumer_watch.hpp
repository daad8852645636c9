#pragma once
// Keeps the host's consumers (collector/model/consumer.hpp) as the consumers source lists them,
// device by device, infers the P_Key indexes IPoIB interfaces use from the ports' tables, and
// judges the consumer.* findings (consumer_rules.hpp) every snapshot: a P_Key or GID change, or a
// change of the consumers, shows at once in who it hits.

#include <map>
#include <memory>
#include <string>

#include "collector/engine/consumers/carrier_history.hpp"
#include "collector/engine/consumers/consumer_rules.hpp"
#include "collector/engine/engine_module.hpp"

namespace rdmadiag::engine::consumers {

class ConsumerWatch final : public engine::EngineModule {
public:
    explicit ConsumerWatch(ConsumerRuleSettings settings = {}) : settings_(settings) {}

    void observe(const Observation& obs, engine::EngineContext& ctx) override;
    void review(const Snapshot& snapshot, engine::EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override;
    uint64_t revision() const override { return revision_; }

private:
    struct Held {
        ConsumerInventory inventory;
        TimePoint read;
    };

    ConsumerRuleSettings settings_;
    std::map<std::string, Held> devices_;
    CarrierHistory carriers_;
    std::shared_ptr<const HostConsumers> published_;
    uint64_t revision_ = 0;
};

}  // namespace rdmadiag::engine::consumers
