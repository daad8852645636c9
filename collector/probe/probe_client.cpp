#include "collector/probe/probe_client.hpp"

#include <fstream>

namespace rdmadiag::probe {

ProbeClient identify_probe_client(int fd, uint32_t pid, uint32_t uid,
                                  const std::string& procfs_root) {
    ProbeClient c;
    c.fd = fd;
    c.pid = pid;
    c.uid = uid;
    std::ifstream(procfs_root + "/" + std::to_string(pid) + "/comm") >> c.comm;
    if (c.comm.empty()) c.comm = "pid" + std::to_string(pid);
    return c;
}

}  // namespace rdmadiag::probe
