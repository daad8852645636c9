#pragma once
// The engine with every module rdmadiag ships, configured from one settings struct.

#include <memory>

#include "collector/engine/engine.hpp"

namespace rdmadiag {

struct EngineSettings {
    EngineLimits limits;
};

std::unique_ptr<Engine> make_default_engine(const EngineSettings& settings = {});

}  // namespace rdmadiag
