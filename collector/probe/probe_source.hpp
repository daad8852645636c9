#pragma once
// The collector side of the probe: a unix socket (SOCK_SEQPACKET) where probes hand over their
// per-thread rings (memfd, SCM_RIGHTS) and name their devices, and a drain of those rings on
// every poll. Each client is attributed to its process by SO_PEERCRED only; nothing it says
// about itself is believed. A client that sends garbage, too many rings or messages, or a ring
// that lies about its contents is disconnected; what one client can make the collector hold is
// bounded (rings x ring size), and so is the work one poll does for it.

#include <sys/types.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/probe/ring_reader.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::probe {

struct ProbeLimits {
    size_t max_clients = 64;
    size_t max_rings_per_client = 64;
    size_t max_ring_bytes = 1 << 20;
    size_t max_records_per_poll = 1 << 16;  // per client
    size_t max_invalid_records = 64;        // per client, before it is cut off
    size_t max_bad_messages = 4;            // per client
    size_t max_messages = 256;              // per client, over its life
};

struct ProbeStats {
    uint64_t accepted = 0;
    uint64_t refused = 0;       // over max_clients
    uint64_t disconnected = 0;  // closed by the client (or crashed)
    uint64_t cut_off = 0;       // disconnected by us for misbehaving
    uint64_t records = 0;
    uint64_t invalid_records = 0;
    uint64_t rings = 0;
    uint64_t bad_messages = 0;
    uint64_t throttled = 0;  // polls that left records for the next one
};

// Who may connect to the probe socket: its mode (probe.socket_mode, octal, default 0660, never
// writable by others) and group (probe.socket_group, default the daemon's own group).
struct ProbeSocketAccess {
    unsigned mode = 0660;
    std::optional<gid_t> gid;
};
Result<ProbeSocketAccess> socket_access(const sources::SourceSettings& settings);

// The clocks that probe records are stamped with: CLOCK_MONOTONIC, and the TSC, converted
// through it. Fuzzing hands in clocks of its own, so that a run does not depend on when it runs.
int64_t system_monotonic_ns();
uint64_t system_tsc();
struct ProbeClocks {
    int64_t (*monotonic_ns)() = &system_monotonic_ns;
    uint64_t (*tsc)() = &system_tsc;
};

// The clocks as the collector last read them: at the start (0) and at this poll (now).
struct ProbeClockReadings {
    uint64_t tsc0 = 0;
    int64_t mono0 = 0;
    uint64_t tsc_now = 0;
    int64_t mono_now = 0;
};
// How long ago a record stamped `stamp` on `clock` (RDMADIAG_CLOCK_*) happened, in ns; 0 for a
// stamp that cannot be believed (from the future, older than five minutes, beyond any clock).
int64_t probe_record_age_ns(uint64_t stamp, uint32_t clock, const ProbeClockReadings& clocks);

class ProbeSource final : public sources::Source {
public:
    // Listens at settings.extra["probe.socket"] (default /run/rdmadiag/probe.sock), with the
    // access socket_access() reads from the settings.
    explicit ProbeSource(const sources::SourceSettings& settings, ProbeLimits limits = {},
                         ProbeClocks clocks = {});
    ~ProbeSource() override;
    ProbeSource(const ProbeSource&) = delete;
    ProbeSource& operator=(const ProbeSource&) = delete;

    std::string_view name() const override { return "probe"; }
    sources::Availability availability() const override { return availability_; }
    Duration poll_interval() const override { return std::chrono::milliseconds(20); }
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    std::vector<int> event_fds() const override;
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override;

    const std::string& socket_path() const { return path_; }
    size_t clients() const { return clients_.size(); }
    const ProbeStats& stats() const { return stats_; }

private:
    struct Client {
        int fd = -1;
        uint32_t pid = 0;
        uint32_t uid = 0;
        std::string comm;
        std::vector<RingReader> rings;
        std::map<uint8_t, std::string> devices;
        size_t messages = 0;  // since the last poll
        size_t bad_messages = 0;
        size_t invalid_records = 0;
    };

    void accept_clients(TimePoint now, sources::ObservationSink& sink);
    // Returns false when the client is gone or must go (reason set).
    bool read_messages(Client& c, std::string& reason);
    bool drain(Client& c, TimePoint now, sources::ObservationSink& sink, std::string& reason);
    void drop(int fd, TimePoint now, sources::ObservationSink& sink, const std::string& reason);
    TimePoint record_time(const rdmadiag_probe_record& r, uint32_t clock, TimePoint now) const;
    void emit_status(TimePoint now, sources::ObservationSink& sink);

    ProbeLimits limits_;
    std::string path_;
    std::string procfs_;
    sources::Availability availability_;
    int listen_fd_ = -1;
    int epoll_fd_ = -1;
    std::map<int, Client> clients_;
    ProbeStats stats_;
    bool status_sent_ = false;
    // Clock calibration: TSC ticks against CLOCK_MONOTONIC, taken at start and at each drain.
    ProbeClocks clocks_;
    uint64_t tsc0_ = 0;
    int64_t mono0_ = 0;
    uint64_t tsc_now_ = 0;
    int64_t mono_now_ = 0;
};

sources::SourceEntry probe_source_entry();

}  // namespace rdmadiag::probe
