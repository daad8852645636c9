#pragma once
// The collector side of the probe: a unix socket (SOCK_SEQPACKET) where probes hand over their
// per-thread rings (memfd, SCM_RIGHTS) and name their devices, and a drain of those rings on a
// slow timer (every poll, a second apart) or at once when a client rings the doorbell (a message
// on its socket: a failed completion or registration, or a ring half full). So an idle collector
// wakes once a second, on the tick the fast counters take anyway, and what matters still
// reaches the engine at once. Each client is attributed to its process by SO_PEERCRED only; nothing
// it says about itself is believed. A client that sends garbage, too many rings or messages, or a
// ring that lies about its contents is disconnected; what one client can make the collector hold is
// bounded (rings x ring size), and so is the work one poll does for it.
//
// The parts: probe_socket (listening, peer credentials), probe_protocol (the messages),
// probe_ring_drain (records into MR events), probe_clocks (dating records). This source only
// puts them together on its epoll descriptor.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collector/probe/probe_client.hpp"
#include "collector/probe/probe_clocks.hpp"
#include "collector/probe/probe_limits.hpp"
#include "collector/probe/probe_socket.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::probe {

class ProbeSource final : public sources::Source {
public:
    // Listens at the option probe.socket (default /run/rdmadiag/probe.sock), with the
    // access socket_access() reads from the settings.
    explicit ProbeSource(const sources::SourceSettings& settings, ProbeLimits limits = {},
                         ProbeClocks clocks = {});
    ~ProbeSource() override;
    ProbeSource(const ProbeSource&) = delete;
    ProbeSource& operator=(const ProbeSource&) = delete;

    std::string_view name() const override { return "probe"; }
    sources::Availability availability() const override { return availability_; }
    // The slow drain: records that do not ring the doorbell wait at most this long.
    static constexpr Duration kDrainInterval = std::chrono::seconds(1);
    Duration poll_interval() const override { return kDrainInterval; }
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    std::vector<int> event_fds() const override;
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override;

    const std::string& socket_path() const { return path_; }
    size_t clients() const { return clients_.size(); }
    const ProbeStats& stats() const { return stats_; }

private:
    Result<void> start_listening(const sources::SourceSettings& settings);
    void accept_clients();
    void drop(int fd, TimePoint now, sources::ObservationSink& sink, const std::string& reason);
    void emit_status(TimePoint now, sources::ObservationSink& sink);
    void drain_all(TimePoint now, sources::ObservationSink& sink);

    ProbeLimits limits_;
    std::string path_;
    std::string procfs_;
    sources::Availability availability_;
    std::optional<ProbeListenSocket> listener_;
    int epoll_fd_ = -1;
    std::map<int, ProbeClient> clients_;
    ProbeStats stats_;
    bool status_sent_ = false;
    ProbeClockCalibration clocks_;
};

sources::SourceEntry probe_source_entry();

}  // namespace rdmadiag::probe
