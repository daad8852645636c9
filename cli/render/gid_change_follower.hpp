#pragma once
// `rdmadiag gids --watch`: each change of a port's GID views, as the engine records it.

#include <map>
#include <string>
#include <utility>

#include "cli/render/table_change_gate.hpp"
#include "collector/engine/engine.hpp"

namespace rdmadiag::cli::render {

class GidChangeFollower {
public:
    GidChangeFollower(engine::Engine& engine, PortRef filter, bool json)
        : engine_(engine), filter_(std::move(filter)), json_(json) {}

    // Called after the engine consumed `obs`: the change it brought, rendered as text or as one
    // JSON line; empty when it brought none.
    std::string seen(const Observation& obs);

private:
    engine::Engine& engine_;
    PortRef filter_;
    bool json_;
    TableChangeGate<GidView, GidTable> gate_;
    std::map<std::pair<PortRef, GidView>, uint64_t> printed_generation_;
};

}  // namespace rdmadiag::cli::render
