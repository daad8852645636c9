#include "collector/probe/probe_socket.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

namespace rdmadiag::probe {

namespace {

// The caller has checked that the path fits.
sockaddr_un unix_address(const std::string& path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    return addr;
}

}  // namespace

Result<ProbeSocketAccess> socket_access(const sources::SourceSettings& settings) {
    ProbeSocketAccess out;
    if (auto mode = settings.options.get<uint64_t>("probe.socket_mode"))
        out.mode = static_cast<unsigned>(*mode);
    if (auto name = settings.options.text("probe.socket_group")) {
        group gr{};
        group* found = nullptr;
        std::vector<char> buf(16384);
        if (getgrnam_r(name->c_str(), &gr, buf.data(), buf.size(), &found) != 0 || !found)
            return make_error("probe.socket_group '" + *name + "': no such group");
        out.gid = found->gr_gid;
    }
    return out;
}

Result<void> claim_socket_path(const std::string& path) {
    if (path.size() >= sizeof sockaddr_un{}.sun_path) {
        return make_error("probe socket path too long: " + path);
    }
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::path(path).parent_path();
    if (!dir.empty() && !std::filesystem::exists(dir, ec)) {
        std::filesystem::create_directories(dir, ec);
        if (ec) return make_error("cannot create " + dir.string() + ": " + ec.message());
    }
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) return {};
    if (!S_ISSOCK(st.st_mode)) return make_error(path + " exists and is not a socket");
    // A stale socket of an earlier run is replaced; a live collector's is left alone.
    int probe = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    const sockaddr_un addr = unix_address(path);
    const bool live =
        probe >= 0 && ::connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
    if (probe >= 0) ::close(probe);
    if (live) return make_error("another collector is listening at " + path);
    ::unlink(path.c_str());
    return {};
}

Result<ProbeListenSocket> ProbeListenSocket::listen(const std::string& path,
                                                    const ProbeSocketAccess& access) {
    int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    const sockaddr_un addr = unix_address(path);
    // The socket node takes the mode of the socket inode less the umask: made owner-only before
    // bind, nobody else can connect in the moment before the chmod/chown below.
    if (fd >= 0) ::fchmod(fd, 0600);
    const bool bound =
        fd >= 0 && ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
    if (!bound || (access.gid && ::chown(path.c_str(), static_cast<uid_t>(-1), *access.gid) != 0) ||
        ::chmod(path.c_str(), access.mode) != 0 || ::listen(fd, 64) != 0) {
        auto error = make_error("cannot listen at " + path + ": " + std::strerror(errno));
        if (bound) ::unlink(path.c_str());
        if (fd >= 0) ::close(fd);
        return error;
    }
    return ProbeListenSocket(fd, path);
}

ProbeListenSocket::ProbeListenSocket(ProbeListenSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

ProbeListenSocket& ProbeListenSocket::operator=(ProbeListenSocket&& other) noexcept {
    if (this != &other) {
        close();
        fd_ = std::exchange(other.fd_, -1);
        path_ = std::move(other.path_);
    }
    return *this;
}

ProbeListenSocket::~ProbeListenSocket() {
    close();
}

void ProbeListenSocket::close() {
    if (fd_ < 0) return;
    ::close(fd_);
    ::unlink(path_.c_str());
    fd_ = -1;
}

int ProbeListenSocket::accept() const {
    return ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

Result<PeerCredentials> peer_credentials(int fd) {
    ucred cred{};
    socklen_t len = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        return make_error(std::string("SO_PEERCRED: ") + std::strerror(errno), errno);
    }
    return PeerCredentials{static_cast<uint32_t>(cred.pid), cred.uid};
}

}  // namespace rdmadiag::probe
