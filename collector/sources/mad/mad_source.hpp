#pragma once
// The "mad" source: reads P_Key tables (sma view, and sm view with an SM_Key), GID tables (sma
// view; locally with an SM_Key the sm view too), PortInfo violation counters, port state and PMA
// counters over libibumad, for this host's CA (scope local) or every node of the subnet (scope
// subnet). Its options (mad.scope, mad.ca, mad.port, mad.sm_key, the MAD engine's timeout, retries
// and windows, and at subnet scope the schedules of discovery, P_Key tables and counters, the
// shard and the traps) are declared in mad_options.cpp. A refresh (after a PKEY_CHANGE) re-reads
// only that port's table.
// Each poll is one sweep; a MAD that goes unanswered becomes a SampleError on its port.

#include <memory>
#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/mad_sweep.hpp"
#include "collector/sources/mad/sweep_schedule.hpp"
#include "collector/sources/mad/trap_listener.hpp"
#include "collector/sources/mad/umad_transport.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::mad {

struct MadSourceOptions {
    bool subnet = false;
    std::string ca;
    int port = 0;
    std::optional<uint64_t> sm_key;
    mad::MadEngineOptions engine;
    Duration interval = std::chrono::seconds(10);  // local scope: everything at once
    SweepIntervals subnet_intervals;
    SweepShard shard;    // subnet scope: the part of the subnet this collector reads
    bool traps = false;  // subnet scope: subscribe to the SM's traps (on by default there)
};

// Reads mad.* from settings.options, resolved against mad_options().
Result<MadSourceOptions> parse_mad_options(const sources::SourceSettings& settings);

class MadSource final : public sources::Source {
public:
    explicit MadSource(MadSourceOptions options);
    // Reads through `transport` as the umad port `options.port` of `local`, instead of opening
    // one: a fabric the caller plays (the tests' fake fabric).
    MadSource(MadSourceOptions options, std::unique_ptr<MadTransport> transport, LocalCa local);
    // Cancels the trap subscriptions, so the SA stops sending Reports nobody reads.
    ~MadSource() override;

    std::string_view name() const override { return "mad"; }
    sources::Availability availability() const override;
    Duration poll_interval() const override;
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) override;
    std::vector<common::Figure> figures() const override;
    // Subnet scope with traps: the umad descriptor, once the port is open, so that the SA's
    // Reports are answered as they come.
    std::vector<int> event_fds() const override;
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override;

    const TrapListener& traps() const { return traps_; }

    // The last sweep's MAD statistics (sent, retries, timeouts).
    const mad::MadEngineStats& last_stats() const { return last_stats_; }

private:
    Result<void> ensure_open();
    // The sweep options of this poll; nullopt (and the reason emitted) when the port is unusable.
    std::optional<SweepOptions> prepare(TimePoint now, sources::ObservationSink& sink,
                                        std::vector<LocalPortPlan>* plans, uint64_t* local_guid);
    void poll_subnet(TimePoint now, sources::ObservationSink& sink);
    void record_sweep(const MadEngineStats& stats, const SubnetReading& reading,
                      std::chrono::steady_clock::duration took);
    void emit_reading(const SubnetReading& reading, uint64_t local_guid, TimePoint now,
                      sources::ObservationSink& sink, bool whole);
    // An engine on the port; with traps on, what arrives unasked goes to the trap listener.
    MadEngine make_engine(MadEngineOptions options);
    // Reads the Reports that wait, and does what they ask.
    void take_traps(TimePoint now, sources::ObservationSink& sink);
    void act_on_traps(TimePoint now, sources::ObservationSink& sink);
    void keep_subscribed(MadEngine& engine, uint16_t sm_lid, TimePoint now, bool discovering,
                         sources::ObservationSink& sink);
    // Those nodes of the topology read again (PortInfo and P_Key tables), emitted as they are.
    void read_again(std::vector<NodeReading> nodes, TimePoint now, sources::ObservationSink& sink);

    MadSourceOptions options_;
    std::unique_ptr<mad::MadTransport> transport_;
    std::string ca_name_;
    int port_num_ = 0;
    mad::MadEngineStats last_stats_;
    // Since the source started, over every sweep and refresh.
    mad::MadEngineStats total_stats_;
    uint64_t sweeps_ = 0;
    Duration last_sweep_duration_{};
    size_t last_nodes_ = 0;
    size_t last_silent_nodes_ = 0;
    SweepSchedule schedule_;
    std::vector<NodeReading> topology_;   // subnet scope: what discovery found
    std::optional<LocalCa> given_local_;  // the port a caller-given transport stands for
    TrapListener traps_;
    bool discovery_asked_by_trap_ = false;
    uint64_t discoveries_ = 0;
    uint64_t trap_discoveries_ = 0;
    uint64_t trap_node_reads_ = 0;
};

Result<std::unique_ptr<sources::Source>> make_mad_source(const sources::SourceSettings& settings);

}  // namespace rdmadiag::mad
