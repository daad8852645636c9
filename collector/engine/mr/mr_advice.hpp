#pragma once
// What an operator should do about an MR in a given state, by transport. On iWARP re-posting
// LOCAL_INV to an allocated MR is legal; on InfiniBand and RoCE an MR whose state is not known
// (or that completes with MW_BIND_ERR) is only safe again after deregistration.

#include <string>

#include "collector/model/mr_state.hpp"

namespace rdmadiag::engine::mr {

// Empty for states that need nothing (valid, invalid, deregistered).
std::string mr_advice(MrState state, Transport transport, const MrOwner& owner);

}  // namespace rdmadiag::engine::mr
