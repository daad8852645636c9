#pragma once
// The names of processes that hold RDMA resources. RDMA netlink gives a user resource's pid, not
// its comm (rdma(8) reads /proc/PID/comm too). A pid with no process under the procfs root has
// exited since the kernel listed it, or lives in a pid namespace this one cannot see. Each pid
// is looked up once per ProcessNames; make one per pass.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace rdmadiag::sources {

class ProcessNames {
public:
    explicit ProcessNames(std::string procfs_root) : procfs_(std::move(procfs_root)) {}

    // Whether the procfs root is there at all: without it no pid can be judged gone.
    bool available();
    // The process's comm, or nullopt when there is no such process (or no procfs at all).
    std::optional<std::string> comm(uint32_t pid);

private:
    std::string procfs_;
    std::optional<bool> procfs_there_;
    std::map<uint32_t, std::optional<std::string>> known_;
};

}  // namespace rdmadiag::sources
