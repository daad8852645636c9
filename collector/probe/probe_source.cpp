#include "collector/probe/probe_source.hpp"

#include <grp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace rdmadiag::probe {

int64_t system_monotonic_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

uint64_t system_tsc() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return 0;
#endif
}

namespace {

constexpr const char* kDefaultSocket = "/run/rdmadiag/probe.sock";
constexpr size_t kMaxFdsPerMessage = 4;

bool valid_device_name(const char* name, size_t cap) {
    size_t n = strnlen(name, cap);
    if (n == 0 || n == cap) return false;
    for (size_t i = 0; i < n; ++i) {
        char c = name[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '.';
        if (!ok) return false;
    }
    return true;
}

MrOp op_of(uint8_t op) {
    switch (op) {
        case 1:
            return MrOp::fastreg;
        case 2:
            return MrOp::local_inv;
        case 3:
            return MrOp::bind_mw;
        case 4:
            return MrOp::send_with_inv;
        default:
            return MrOp::reg;
    }
}

}  // namespace

Result<ProbeSocketAccess> socket_access(const sources::SourceSettings& settings) {
    ProbeSocketAccess out;
    if (auto it = settings.extra.find("probe.socket_mode"); it != settings.extra.end()) {
        unsigned mode = 0;
        const std::string& v = it->second;
        auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), mode, 8);
        if (v.empty() || ec != std::errc() || ptr != v.data() + v.size() || mode > 0777)
            return make_error("probe.socket_mode '" + v + "': expected an octal mode like 0660");
        if (mode & 0002) return make_error("probe.socket_mode: others may not write (connect)");
        out.mode = mode;
    }
    if (auto it = settings.extra.find("probe.socket_group"); it != settings.extra.end()) {
        group gr{};
        group* found = nullptr;
        std::vector<char> buf(16384);
        if (getgrnam_r(it->second.c_str(), &gr, buf.data(), buf.size(), &found) != 0 || !found)
            return make_error("probe.socket_group '" + it->second + "': no such group");
        out.gid = found->gr_gid;
    }
    return out;
}

ProbeSource::ProbeSource(const sources::SourceSettings& settings, ProbeLimits limits,
                         ProbeClocks clocks)
    : limits_(limits), procfs_(settings.procfs_root), clocks_(clocks) {
    auto it = settings.extra.find("probe.socket");
    path_ = it != settings.extra.end() ? it->second : kDefaultSocket;
    tsc0_ = tsc_now_ = clocks_.tsc();
    mono0_ = mono_now_ = clocks_.monotonic_ns();

    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path_.size() >= sizeof addr.sun_path) {
        availability_ = {false, "probe socket path too long: " + path_};
        return;
    }
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::path(path_).parent_path();
    if (!dir.empty() && !std::filesystem::exists(dir, ec)) {
        std::filesystem::create_directories(dir, ec);
        if (ec) {
            availability_ = {false, "cannot create " + dir.string() + ": " + ec.message()};
            return;
        }
    }
    struct stat st {};
    if (lstat(path_.c_str(), &st) == 0) {
        if (!S_ISSOCK(st.st_mode)) {
            availability_ = {false, path_ + " exists and is not a socket"};
            return;
        }
        // A stale socket of an earlier run is replaced; a live collector's is left alone.
        int probe = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
        const bool live =
            probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
        if (probe >= 0) ::close(probe);
        if (live) {
            availability_ = {false, "another collector is listening at " + path_};
            return;
        }
        ::unlink(path_.c_str());
    }
    auto access = socket_access(settings);
    if (!access) {
        availability_ = {false, access.error().message};
        return;
    }
    listen_fd_ = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
    // The socket node takes the mode of the socket inode less the umask: made owner-only before
    // bind, nobody else can connect in the moment before the chmod/chown below.
    if (listen_fd_ >= 0) ::fchmod(listen_fd_, 0600);
    const bool bound =
        listen_fd_ >= 0 && ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (!bound ||
        (access->gid && ::chown(path_.c_str(), static_cast<uid_t>(-1), *access->gid) != 0) ||
        ::chmod(path_.c_str(), access->mode) != 0 || ::listen(listen_fd_, 64) != 0) {
        availability_ = {false, "cannot listen at " + path_ + ": " + std::strerror(errno)};
        if (bound) ::unlink(path_.c_str());
        if (listen_fd_ >= 0) ::close(listen_fd_);
        listen_fd_ = -1;
        return;
    }
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listen_fd_;
    if (epoll_fd_ < 0 || ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev) != 0) {
        availability_ = {false, std::string("epoll: ") + std::strerror(errno)};
        return;
    }
    availability_ = {true, "listening at " + path_};
}

ProbeSource::~ProbeSource() {
    for (auto& [fd, c] : clients_) ::close(fd);
    clients_.clear();
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
    if (listen_fd_ >= 0) {
        ::close(listen_fd_);
        ::unlink(path_.c_str());
    }
}

std::vector<int> ProbeSource::event_fds() const {
    if (epoll_fd_ < 0) return {};
    return {epoll_fd_};
}

void ProbeSource::emit_status(TimePoint now, sources::ObservationSink& sink) {
    if (status_sent_) return;
    status_sent_ = true;
    sink.emit(
        Observation{now, "probe", SourceStatus{availability_.available, availability_.reason}});
}

void ProbeSource::accept_clients(TimePoint now, sources::ObservationSink& sink) {
    for (;;) {
        int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) return;
        if (clients_.size() >= limits_.max_clients) {
            ++stats_.refused;
            ::close(fd);
            continue;
        }
        ucred cred{};
        socklen_t len = sizeof cred;
        if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
            ::close(fd);
            continue;
        }
        Client c;
        c.fd = fd;
        c.pid = static_cast<uint32_t>(cred.pid);
        c.uid = cred.uid;
        std::ifstream(procfs_ + "/" + std::to_string(cred.pid) + "/comm") >> c.comm;
        if (c.comm.empty()) c.comm = "pid" + std::to_string(cred.pid);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
        clients_.emplace(fd, std::move(c));
        ++stats_.accepted;
        (void)now;
        (void)sink;
    }
}

bool ProbeSource::read_messages(Client& c, std::string& reason) {
    for (;;) {
        rdmadiag_probe_msg m{};
        iovec iov{&m, sizeof m};
        alignas(cmsghdr) char cbuf[CMSG_SPACE(sizeof(int) * kMaxFdsPerMessage)];
        msghdr mh{};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = cbuf;
        mh.msg_controllen = sizeof cbuf;
        ssize_t n = ::recvmsg(c.fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
            reason = std::string("receive failed: ") + std::strerror(errno);
            return false;
        }
        std::vector<int> fds;
        for (cmsghdr* cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
            if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS) continue;
            size_t count = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count; ++i) {
                int fd = -1;
                std::memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
                fds.push_back(fd);
            }
        }
        struct Closer {
            std::vector<int>& fds;
            ~Closer() {
                for (int fd : fds) ::close(fd);
            }
        } closer{fds};
        // Closed (or crashed). A zero-length message reads the same, and may carry descriptors:
        // they are collected above, so the closer releases them too.
        if (n == 0) return false;

        if (++c.messages > limits_.max_messages) {
            reason =
                "more than " + std::to_string(limits_.max_messages) + " messages between polls";
            return false;
        }
        const bool well_formed =
            n == static_cast<ssize_t>(sizeof m) && !(mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) &&
            m.magic == RDMADIAG_PROBE_MAGIC && m.version == RDMADIAG_PROBE_VERSION;
        std::string bad;
        if (!well_formed) {
            bad = "malformed message";
        } else if (m.type == RDMADIAG_MSG_RING) {
            if (fds.size() != 1) {
                bad = "ring message without exactly one descriptor";
            } else if (c.rings.size() >= limits_.max_rings_per_client) {
                reason = "more than " + std::to_string(limits_.max_rings_per_client) + " rings";
                return false;
            } else {
                auto ring = RingReader::map(fds[0], limits_.max_ring_bytes);
                if (!ring && ring.error().code == EBADMSG) {
                    reason = ring.error().message;
                    return false;
                }
                if (!ring) {
                    bad = "ring refused: " + ring.error().message;
                } else {
                    c.rings.push_back(std::move(ring).value());
                    ++stats_.rings;
                }
            }
        } else if (m.type == RDMADIAG_MSG_DEVICE) {
            if (!fds.empty() || m.arg >= RDMADIAG_MAX_DEVICES ||
                !valid_device_name(m.name, sizeof m.name)) {
                bad = "bad device message";
            } else {
                c.devices[static_cast<uint8_t>(m.arg)] = std::string(m.name);
            }
        } else {
            bad = "unknown message type";
        }
        if (!bad.empty()) ++stats_.bad_messages;
        if (!bad.empty() && ++c.bad_messages > limits_.max_bad_messages) {
            reason = bad;
            return false;
        }
    }
}

int64_t probe_record_age_ns(uint64_t stamp, uint32_t clock, const ProbeClockReadings& c) {
    // The stamp is the client's word: one from the future, from before the collector knew the
    // client, older than five minutes or beyond any clock is not believable (age 0: dated now).
    constexpr int64_t kMaxAgeNs =
        std::chrono::duration_cast<Duration>(std::chrono::minutes(5)).count();
    if (clock == RDMADIAG_CLOCK_MONOTONIC) {
        if (c.mono_now < 0) return 0;
        const auto now_ns = static_cast<uint64_t>(c.mono_now);
        if (stamp > now_ns || now_ns - stamp > static_cast<uint64_t>(kMaxAgeNs)) return 0;
        return static_cast<int64_t>(now_ns - stamp);
    }
    if (stamp <= c.tsc_now && c.tsc_now > c.tsc0 && c.mono_now > c.mono0) {
        const double ns_per_tick =
            static_cast<double>(c.mono_now - c.mono0) / static_cast<double>(c.tsc_now - c.tsc0);
        const double ns = static_cast<double>(c.tsc_now - stamp) * ns_per_tick;
        if (ns <= static_cast<double>(kMaxAgeNs)) return static_cast<int64_t>(ns);
    }
    return 0;
}

TimePoint ProbeSource::record_time(const rdmadiag_probe_record& r, uint32_t clock,
                                   TimePoint now) const {
    const ProbeClockReadings readings{tsc0_, mono0_, tsc_now_, mono_now_};
    return now - Duration{probe_record_age_ns(r.stamp, clock, readings)};
}

bool ProbeSource::drain(Client& c, TimePoint now, sources::ObservationSink& sink,
                        std::string& reason) {
    size_t budget = limits_.max_records_per_poll;
    MrOwner owner{c.pid, c.comm};
    for (size_t i = 0; i < c.rings.size();) {
        RingReader& ring = c.rings[i];
        const uint32_t clock = ring.clock();
        RingDrain d = ring.drain(budget, [&](const rdmadiag_probe_record& r) {
            MrEvent ev;
            if (r.device != 255) {
                auto dev = c.devices.find(r.device);
                if (dev == c.devices.end()) {
                    ++c.invalid_records;
                    ++stats_.invalid_records;
                    return;
                }
                ev.device = dev->second;
            }
            ev.mr = r.lkey;
            ev.key = r.lkey;
            ev.owner = owner;
            switch (r.kind) {
                case RDMADIAG_REC_REG:
                    ev.op = MrOp::reg;
                    ev.rc = r.rc;
                    break;
                case RDMADIAG_REC_DEREG:
                    ev.op = MrOp::dereg;
                    ev.rc = r.rc;
                    break;
                case RDMADIAG_REC_POST:
                    ev.op = op_of(r.op);
                    ev.posted = true;
                    break;
                default:
                    if (r.op == 0) return;  // a failed ordinary completion: not about an MR
                    ev.op = op_of(r.op);
                    ev.status = wc_status_from_code(r.status).value_or(WcStatus::general_err);
                    break;
            }
            ++stats_.records;
            sink.emit(Observation{record_time(r, clock, now), "probe", std::move(ev)});
        });
        budget -= std::min(budget, d.valid);
        c.invalid_records += d.invalid;
        stats_.invalid_records += d.invalid;
        if (d.more) ++stats_.throttled;
        if (d.corrupt) {
            reason = "ring " + std::to_string(ring.tid()) + " claims more records than it holds";
            return false;
        }
        if (c.invalid_records > limits_.max_invalid_records) {
            reason = std::to_string(c.invalid_records) + " invalid records";
            return false;
        }
        if (d.closed && !d.more) {
            c.rings.erase(c.rings.begin() + static_cast<std::ptrdiff_t>(i));
            continue;
        }
        ++i;
    }
    return true;
}

void ProbeSource::drop(int fd, TimePoint now, sources::ObservationSink& sink,
                       const std::string& reason) {
    auto it = clients_.find(fd);
    if (it == clients_.end()) return;
    Client& c = it->second;
    if (!reason.empty()) {
        ++stats_.cut_off;
        sink.emit(Observation{
            now, "probe",
            SampleError{"probe client " + c.comm + " (pid " + std::to_string(c.pid) + ")",
                        "disconnected: " + reason, 0}});
    } else {
        ++stats_.disconnected;
    }
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
    ::close(fd);
    clients_.erase(it);
}

void ProbeSource::on_readable(int fd, TimePoint now, sources::ObservationSink& sink) {
    emit_status(now, sink);
    if (fd != epoll_fd_) return;
    tsc_now_ = clocks_.tsc();
    mono_now_ = clocks_.monotonic_ns();
    epoll_event events[32];
    int n = ::epoll_wait(epoll_fd_, events, 32, 0);
    for (int i = 0; i < n; ++i) {
        int cfd = events[i].data.fd;
        if (cfd == listen_fd_) {
            accept_clients(now, sink);
            continue;
        }
        auto it = clients_.find(cfd);
        if (it == clients_.end()) continue;
        std::string reason;
        if (!read_messages(it->second, reason)) {
            // Gone or cut off: what it published before still counts, unless it lied.
            std::string drain_reason;
            if (reason.empty()) drain(it->second, now, sink, drain_reason);
            drop(cfd, now, sink, reason.empty() ? drain_reason : reason);
        }
    }
}

void ProbeSource::poll(TimePoint now, sources::ObservationSink& sink) {
    emit_status(now, sink);
    tsc_now_ = clocks_.tsc();
    mono_now_ = clocks_.monotonic_ns();
    std::vector<std::pair<int, std::string>> cut;
    for (auto& [fd, c] : clients_) {
        c.messages = 0;  // threads come and go: the bound is on bursts, not on a life
        std::string reason;
        if (!drain(c, now, sink, reason)) cut.emplace_back(fd, reason);
    }
    for (const auto& [fd, reason] : cut) drop(fd, now, sink, reason);
}

sources::SourceEntry probe_source_entry() {
    sources::SourceEntry e;
    e.name = "probe";
    e.description = "MR operations reported by applications linked with librdmadiag_probe";
    // Off for one-shot commands (they would only listen for a moment); the daemon turns it on.
    e.enabled_by_default = false;
    e.factory = [](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
        return std::unique_ptr<sources::Source>(std::make_unique<ProbeSource>(s));
    };
    return e;
}

}  // namespace rdmadiag::probe
