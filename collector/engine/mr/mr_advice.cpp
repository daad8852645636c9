#include "collector/engine/mr/mr_advice.hpp"

namespace rdmadiag::engine::mr {

namespace {

std::string who(const MrOwner& owner) {
    if (owner.pid) return "process " + owner.name + " (pid " + std::to_string(*owner.pid) + ")";
    if (!owner.name.empty()) return "kernel ULP " + owner.name;
    return "its owner";
}

}  // namespace

std::string mr_advice(MrState state, Transport transport, const MrOwner& owner) {
    const std::string actor = who(owner);
    switch (state) {
        case MrState::unknown:
            switch (transport) {
                case Transport::iwarp:
                    return actor +
                           " may re-post LOCAL_INV to this MR (legal on iWARP) to return it to a "
                           "known state; deregister it if that fails";
                case Transport::ib:
                case Transport::roce:
                    return actor +
                           " must deregister this MR and allocate a new one before reusing it: "
                           "on InfiniBand/RoCE re-posting LOCAL_INV or FASTREG to an MR in an "
                           "unknown state is not safe";
                case Transport::unknown:
                    return actor +
                           " should deregister this MR and allocate a new one (transport not "
                           "known; on iWARP re-posting LOCAL_INV would also be legal)";
            }
            break;
        case MrState::awaiting_teardown:
            return "nothing to do while the transport reconnects: this kernel's xprtrdma never "
                   "reuses a flushed MR and destroys it when the connection is torn down; if it "
                   "outlives that, the transport did not release it (look at the mount's "
                   "xprt line in /proc/self/mountstats; a remount releases it)";
        case MrState::stuck:
            return actor +
                   " must deregister this MR (ib_dereg_mr / ibv_dereg_mr) and allocate a new "
                   "one: every further FASTREG or LOCAL_INV on it fails with MW_BIND_ERR";
        case MrState::valid:
        case MrState::invalid:
        case MrState::deregistered:
            break;
    }
    return {};
}

}  // namespace rdmadiag::engine::mr
