#include "collector/engine/default_engine.hpp"

#include "collector/engine/events/event_totals.hpp"
#include "collector/engine/pkey/pkey_views.hpp"

namespace rdmadiag {

std::unique_ptr<Engine> make_default_engine(const EngineSettings& settings) {
    auto engine = std::make_unique<Engine>(settings.limits);
    engine->add_module(std::make_unique<PKeyViews>());
    engine->add_module(std::make_unique<EventTotals>());
    return engine;
}

}  // namespace rdmadiag
