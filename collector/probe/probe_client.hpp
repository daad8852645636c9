#pragma once
// One connected probe client as the collector knows it: who it is (by the kernel's word, never
// its own), the rings and device names it handed over, and how it has behaved so far.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collector/probe/ring_reader.hpp"

namespace rdmadiag::probe {

struct ProbeClient {
    int fd = -1;
    uint32_t pid = 0;
    uint32_t uid = 0;
    std::string comm;
    std::vector<RingReader> rings;
    std::map<uint8_t, std::string> devices;  // by the index its records name them with
    size_t messages = 0;                     // since the last poll
    size_t doorbells = 0;                    // since the last poll
    size_t bad_messages = 0;
    size_t invalid_records = 0;
};

// The client on connected socket `fd`, named after its process's comm under `procfs_root`
// ("pid1234" when that cannot be read).
ProbeClient identify_probe_client(int fd, uint32_t pid, uint32_t uid,
                                  const std::string& procfs_root);

}  // namespace rdmadiag::probe
