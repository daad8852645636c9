#pragma once
// Small text files read whole: configuration files, web config, golden outputs.

#include <cstddef>
#include <string>

#include "collector/common/result.hpp"

namespace rdmadiag::common {

// Reads a whole (small) file; refuses files above `max_bytes`.
Result<std::string> read_text_file(const std::string& path, size_t max_bytes = 1 << 20);

}  // namespace rdmadiag::common
