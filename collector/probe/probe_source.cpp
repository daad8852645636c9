#include "collector/probe/probe_source.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "collector/probe/probe_options.hpp"
#include "collector/probe/probe_protocol.hpp"
#include "collector/probe/probe_ring_drain.hpp"

namespace rdmadiag::probe {

namespace {

constexpr const char* kDefaultSocket = "/run/rdmadiag/probe.sock";

}  // namespace

ProbeSource::ProbeSource(const sources::SourceSettings& settings, ProbeLimits limits,
                         ProbeClocks clocks)
    : limits_(limits), procfs_(settings.procfs_root), clocks_(clocks) {
    path_ = settings.options.text("probe.socket").value_or(kDefaultSocket);
    if (auto started = start_listening(settings); !started) {
        availability_ = {false, started.error().message};
        return;
    }
    availability_ = {true, "listening at " + path_};
}

Result<void> ProbeSource::start_listening(const sources::SourceSettings& settings) {
    // The path is claimed before the settings are read, so a stale socket goes either way.
    RDMADIAG_TRY(claim_socket_path(path_));
    auto access = RDMADIAG_TRY(socket_access(settings));
    auto listening = RDMADIAG_TRY(ProbeListenSocket::listen(path_, access));
    listener_.emplace(std::move(listening));
    epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listener_->fd();
    if (epoll_fd_ < 0 || ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listener_->fd(), &ev) != 0) {
        return make_error(std::string("epoll: ") + std::strerror(errno));
    }
    return {};
}

ProbeSource::~ProbeSource() {
    for (auto& [fd, c] : clients_) ::close(fd);
    clients_.clear();
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
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

void ProbeSource::accept_clients() {
    for (;;) {
        int fd = listener_->accept();
        if (fd < 0) return;
        if (clients_.size() >= limits_.max_clients) {
            ++stats_.refused;
            ::close(fd);
            continue;
        }
        auto peer = peer_credentials(fd);
        if (!peer) {
            ::close(fd);
            continue;
        }
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        ::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
        clients_.emplace(fd, identify_probe_client(fd, peer->pid, peer->uid, procfs_));
        ++stats_.accepted;
    }
}

void ProbeSource::drop(int fd, TimePoint now, sources::ObservationSink& sink,
                       const std::string& reason) {
    auto it = clients_.find(fd);
    if (it == clients_.end()) return;
    ProbeClient& c = it->second;
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
    clocks_.read_now();
    bool doorbell = false;
    epoll_event events[32];
    int n = ::epoll_wait(epoll_fd_, events, 32, 0);
    for (int i = 0; i < n; ++i) {
        int cfd = events[i].data.fd;
        if (cfd == listener_->fd()) {
            accept_clients();
            continue;
        }
        auto it = clients_.find(cfd);
        if (it == clients_.end()) continue;
        const size_t rung = it->second.doorbells;
        auto still_there = read_probe_messages(it->second, limits_, stats_);
        if (!still_there) {
            drop(cfd, now, sink, still_there.error().message);
        } else if (!*still_there) {
            // Gone: what it published before it left still counts, unless it lied.
            auto drained = drain_probe_client(it->second, limits_, clocks_, now, sink, stats_);
            drop(cfd, now, sink, drained ? std::string() : drained.error().message);
        } else if (it->second.doorbells != rung) {
            doorbell = true;
        }
    }
    // Every client, not only the one that rang: the engine then sees the records of one moment
    // together, in time order, rather than one client's now and another's a second late.
    if (doorbell) drain_all(now, sink);
}

void ProbeSource::drain_all(TimePoint now, sources::ObservationSink& sink) {
    std::vector<std::pair<int, std::string>> cut;
    for (auto& [fd, c] : clients_) {
        auto drained = drain_probe_client(c, limits_, clocks_, now, sink, stats_);
        if (!drained) cut.emplace_back(fd, drained.error().message);
    }
    for (const auto& [fd, reason] : cut) drop(fd, now, sink, reason);
}

void ProbeSource::poll(TimePoint now, sources::ObservationSink& sink) {
    emit_status(now, sink);
    clocks_.read_now();
    for (auto& [fd, c] : clients_) {
        c.messages = 0;  // threads come and go: the bound is on bursts, not on a life
        c.doorbells = 0;
    }
    drain_all(now, sink);
}

sources::SourceEntry probe_source_entry() {
    sources::SourceEntry e;
    e.name = "probe";
    e.description = "MR operations reported by applications linked with librdmadiag_probe";
    // Off for one-shot commands (they would only listen for a moment); the daemon turns it on.
    e.enabled_by_default = false;
    e.options = probe_options();
    e.factory = [](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
        return std::unique_ptr<sources::Source>(std::make_unique<ProbeSource>(s));
    };
    return e;
}

}  // namespace rdmadiag::probe
