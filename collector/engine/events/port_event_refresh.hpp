#pragma once
// A port event that says the port's attributes moved (PORT_ACTIVE, PORT_ERR, LID_CHANGE,
// SM_CHANGE, CLIENT_REREGISTER, GID_CHANGE) asks the sources to read that port again at once:
// between their whole passes, sources read a port's LIDs, SM LID, rate and GIDs only when its state
// changed, and these events are how the kernel says they changed without it. PKEY_CHANGE is the
// P_Key views' own (they also reload the emulated cache from the fresh read).

#include "collector/engine/engine_module.hpp"

namespace rdmadiag::engine::events {

// Whether an event of this type asks for its port to be read again.
bool refreshes_port(AsyncEventType type);

class PortEventRefresh final : public EngineModule {
public:
    void observe(const Observation& obs, EngineContext& ctx) override;
    void contribute(Snapshot&) const override {}
};

}  // namespace rdmadiag::engine::events
