#pragma once
// SRP initiator hosts as consumers: the attributes ib_srp puts on each SCSI host it made
// (/sys/class/scsi_host/hostN/, the kernel's drivers/infiniband/ulp/srp/ib_srp.c):
// local_ib_device and local_ib_port ("%s", "%d"), pkey ("0x%04x"), sgid and dgid ("%pI6": eight
// groups of four hex digits). A host logged in through RDMA CM has no pkey or dgid (reading them
// fails with ENOENT). Parsers take the files' text; the source reads them.

#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/model/consumer.hpp"

namespace rdmadiag::consumers {

// What one SCSI host's files said; an absent or unreadable file is nullopt.
struct SrpHostFiles {
    std::string host;  // "host7"
    std::optional<std::string> local_ib_device;
    std::optional<std::string> local_ib_port;
    std::optional<std::string> pkey;
    std::optional<std::string> sgid;
    std::optional<std::string> dgid;
};

// Whether the host is ib_srp's at all: other SCSI hosts have no local_ib_device.
bool is_srp_host(const SrpHostFiles& files);

// The host as a consumer of its port: an RC connection with the P_Key and source GID it logged in
// with, the target's GID as its address. An error names the file that did not parse.
Result<Consumer> srp_consumer(const SrpHostFiles& files);

}  // namespace rdmadiag::consumers
