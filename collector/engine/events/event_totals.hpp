#pragma once
// Counts async events by device, port and type for the life of the engine, so exporters can
// publish monotonic totals while the snapshot's event list stays bounded.

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "collector/engine/engine_module.hpp"

namespace rdmadiag::engine::events {

class EventTotals final : public EngineModule {
public:
    void observe(const Observation& obs, EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override;

private:
    using Key = std::tuple<std::string, std::optional<uint32_t>, AsyncEventType>;
    std::map<Key, uint64_t> counts_;
};

}  // namespace rdmadiag::engine::events
