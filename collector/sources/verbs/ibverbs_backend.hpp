#pragma once
// The VerbsBackend that talks to libibverbs.

#include <memory>

#include "collector/sources/verbs/verbs_backend.hpp"

namespace rdmadiag::verbs {

std::unique_ptr<VerbsBackend> make_ibverbs_backend();

}  // namespace rdmadiag::verbs
