#pragma once
// The engine with every module rdmadiag ships, configured from one settings struct.

#include <memory>

#include "collector/engine/consumers/consumer_settings.hpp"
#include "collector/engine/engine.hpp"
#include "collector/engine/gid/gid_settings.hpp"
#include "collector/engine/mr/mr_health_settings.hpp"
#include "collector/engine/mr/mr_usage_settings.hpp"
#include "collector/engine/partitions/partition_settings.hpp"
#include "collector/engine/pkey/pkey_settings.hpp"

namespace rdmadiag::engine {

struct EngineSettings {
    EngineLimits limits;
    engine::pkey::PKeySettings pkey;
    engine::gid::GidSettings gid;
    engine::mr::MrHealthSettings mr;
    engine::mr::MrUsageSettings mr_usage;
    partitions::PartitionSettings partitions;
    engine::consumers::ConsumerRuleSettings consumers;
};

std::unique_ptr<Engine> make_default_engine(const EngineSettings& settings = {});

}  // namespace rdmadiag::engine
