#pragma once
// The probe's listening socket: a unix SOCK_SEQPACKET socket at a path, with the mode and group
// the settings give it, and who is at the other end of each connection it accepts. Only the
// kernel's word (SO_PEERCRED) says who a client is.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::probe {

// Who may connect to the probe socket: its mode (probe.socket_mode, octal, default 0660, never
// writable by others) and group (probe.socket_group, default the daemon's own group).
struct ProbeSocketAccess {
    unsigned mode = 0660;
    std::optional<gid_t> gid;
};
Result<ProbeSocketAccess> socket_access(const sources::SourceSettings& settings);

// Makes `path` ready for a new listener: its folder is created, and a stale socket an earlier
// run left there is removed. Fails when the path is too long for a unix socket, is something
// other than a socket, or another collector is listening at it.
Result<void> claim_socket_path(const std::string& path);

// A listening socket at a claimed path; the path is removed when the socket closes.
class ProbeListenSocket {
public:
    // Never more open than `access` says, not even for a moment: it is bound owner-only first.
    static Result<ProbeListenSocket> listen(const std::string& path,
                                            const ProbeSocketAccess& access);

    ProbeListenSocket(ProbeListenSocket&& other) noexcept;
    ProbeListenSocket& operator=(ProbeListenSocket&& other) noexcept;
    ProbeListenSocket(const ProbeListenSocket&) = delete;
    ProbeListenSocket& operator=(const ProbeListenSocket&) = delete;
    ~ProbeListenSocket();

    int fd() const { return fd_; }
    // The next pending connection (non-blocking, close-on-exec), or -1 when none is pending.
    int accept() const;

private:
    ProbeListenSocket(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
    void close();

    int fd_ = -1;
    std::string path_;
};

// The process at the other end of a connected unix socket, as the kernel says.
struct PeerCredentials {
    uint32_t pid = 0;
    uint32_t uid = 0;
};
Result<PeerCredentials> peer_credentials(int fd);

}  // namespace rdmadiag::probe
