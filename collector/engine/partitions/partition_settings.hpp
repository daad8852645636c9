#pragma once
// Bounds of the partition.* findings. docs/findings.md describes them.

#include <cstddef>

namespace rdmadiag::partitions {

struct PartitionSettings {
    // Ports a finding names in its evidence; the rest are counted. A finding is about one
    // partition, so an intent that is wrong for thousands of ports makes a few findings, not one
    // per port.
    size_t example_ports = 8;
};

}  // namespace rdmadiag::partitions
