#pragma once
// Keeps every view of every port's P_Key table, each with a generation that rises on every real
// change. The coherence rules read these views.

#include <map>

#include "collector/engine/engine_module.hpp"
#include "collector/model/pkey_state.hpp"

namespace rdmadiag {

class PKeyViews final : public EngineModule {
public:
    void observe(const Observation& obs, EngineContext& ctx) override;
    void contribute(Snapshot& snapshot) const override;

    const PKeyViewState* view(const PortRef& port, PKeyView v) const;

private:
    std::map<PortRef, PortPKeyState> ports_;
};

}  // namespace rdmadiag
