#pragma once
// Writes a synthetic /sys/class/infiniband tree of any size: N mlx5-style InfiniBand devices with
// M ports each, full P_Key tables, every counters/ file and a set of hw_counters/, and optionally
// mlx4-style devices (32-bit counters/, 64-bit counters_ext/, no hw_counters/). The benchmark and
// the comparison with node_exporter read it; it is generated where it is needed and never
// committed.

#include <cstdint>
#include <string>

#include "collector/common/result.hpp"

namespace rdmadiag::test {

struct SysfsTreeSpec {
    uint32_t devices = 16;
    uint32_t mlx4_devices = 0;  // mlx4_<n>, in addition to the mlx5 ones
    uint32_t ports = 2;
    uint32_t pkeys = 128;  // table size; a few slots hold keys, the rest are empty
    uint32_t gids = 8;
    bool counters = true;
    bool hw_counters = true;
};

// Writes <root>/class/infiniband/mlx5_<d>/... (and mlx4_<d>/...). The root is created; a tree this
// function wrote before is replaced, anything else under <root>/class is refused (EEXIST).
Result<void> write_sysfs_tree(const std::string& root, const SysfsTreeSpec& spec);

// Writes one file, creating its parent directories; `text` is written byte for byte.
Result<void> write_text_file(const std::string& path, const std::string& text);

}  // namespace rdmadiag::test
