#include "collector/engine/default/default_engine.hpp"

#include "collector/engine/consumers/consumer_watch.hpp"
#include "collector/engine/events/event_totals.hpp"
#include "collector/engine/events/port_event_refresh.hpp"
#include "collector/engine/gid/gid_views.hpp"
#include "collector/engine/mr/mr_health_tracker.hpp"
#include "collector/engine/mr/mr_usage_tracker.hpp"
#include "collector/engine/partitions/partition_watch.hpp"
#include "collector/engine/pkey/views/pkey_views.hpp"

namespace rdmadiag::engine {

std::unique_ptr<Engine> make_default_engine(const EngineSettings& settings) {
    auto engine = std::make_unique<Engine>(settings.limits);
    engine->add_module(std::make_unique<engine::pkey::PKeyViews>(settings.pkey));
    engine->add_module(std::make_unique<engine::gid::GidViews>(settings.gid));
    engine->add_module(std::make_unique<engine::events::EventTotals>());
    engine->add_module(std::make_unique<engine::events::PortEventRefresh>());
    engine->add_module(std::make_unique<engine::mr::MrHealthTracker>(settings.mr));
    engine->add_module(std::make_unique<engine::mr::MrUsageTracker>(settings.mr_usage));
    engine->add_module(std::make_unique<partitions::PartitionWatch>(settings.partitions));
    engine->add_module(std::make_unique<engine::consumers::ConsumerWatch>(settings.consumers));
    return engine;
}

}  // namespace rdmadiag::engine
