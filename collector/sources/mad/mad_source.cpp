#include "collector/sources/mad/mad_source.hpp"

#include <algorithm>
#include <utility>

#include "collector/sources/mad/mad_observations.hpp"
#include "collector/sources/mad/umad_transport.hpp"

namespace rdmadiag::mad {

Result<MadSourceOptions> parse_mad_options(const sources::SourceSettings& settings) {
    const auto& opt = settings.options;
    MadSourceOptions o;
    o.interval = settings.pkey_interval;
    o.subnet = opt.text("mad.scope") == "subnet";
    o.ca = opt.text("mad.ca").value_or("");
    if (auto v = opt.get<uint64_t>("mad.port")) o.port = static_cast<int>(*v);
    o.sm_key = opt.get<uint64_t>("mad.sm_key");
    if (auto d = opt.get<Duration>("mad.timeout"))
        o.engine.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    if (auto v = opt.get<uint64_t>("mad.retries")) o.engine.retries = static_cast<unsigned>(*v);
    if (auto v = opt.get<uint64_t>("mad.concurrency"))
        o.engine.per_target = static_cast<unsigned>(*v);
    if (auto v = opt.get<uint64_t>("mad.in_flight")) o.engine.in_flight = static_cast<unsigned>(*v);
    // Checked when the options were resolved; read here only for its two numbers.
    if (auto v = opt.text("mad.shard")) o.shard = RDMADIAG_TRY(parse_sweep_shard(*v));
    o.subnet_intervals.pkeys =
        opt.get<Duration>("mad.pkey_interval").value_or(settings.pkey_interval);
    if (auto d = opt.get<Duration>("mad.discovery_interval")) o.subnet_intervals.discovery = *d;
    if (auto d = opt.get<Duration>("mad.counter_interval")) o.subnet_intervals.counters = *d;
    o.traps = opt.get<bool>("mad.traps").value_or(o.subnet);
    return o;
}

MadSource::MadSource(MadSourceOptions options)
    : options_(std::move(options)), schedule_(options_.subnet_intervals) {}

MadSource::MadSource(MadSourceOptions options, std::unique_ptr<MadTransport> transport,
                     LocalCa local)
    : MadSource(std::move(options)) {
    transport_ = std::move(transport);
    ca_name_ = local.name;
    port_num_ =
        options_.port != 0 ? options_.port : (local.ports.empty() ? 0 : local.ports.front().port);
    given_local_ = std::move(local);
}

MadSource::~MadSource() {
    if (!transport_ || !traps_.subscribed()) return;
    // One attempt each: a stop should not wait on an SA that went away.
    MadEngineOptions quick = options_.engine;
    quick.retries = 0;
    MadEngine engine(*transport_, quick);
    traps_.unsubscribe(engine, options_.sm_key.value_or(0));
}

Duration MadSource::poll_interval() const {
    return options_.subnet ? schedule_.poll_interval() : options_.interval;
}

sources::Availability MadSource::availability() const {
    auto names = mad::local_ca_names();
    if (!names) return {false, names.error().message};
    if (!options_.ca.empty() &&
        std::find(names->begin(), names->end(), options_.ca) == names->end()) {
        return {false, "umad CA " + options_.ca + " not found"};
    }
    return {true, ""};
}

Result<void> MadSource::ensure_open() {
    if (transport_) return {};
    auto t = RDMADIAG_TRY(mad::UmadTransport::open(options_.ca, options_.port));
    ca_name_ = t->ca_name();
    port_num_ = t->port_num();
    if (options_.traps && !t->reports()) traps_.disable(t->reports().error().message);
    transport_ = std::move(t);
    return {};
}

std::optional<SweepOptions> MadSource::prepare(TimePoint now, sources::ObservationSink& sink,
                                               std::vector<LocalPortPlan>* plans,
                                               uint64_t* local_guid) {
    const std::string src(name());
    if (auto ok = ensure_open(); !ok) {
        sink.emit(Observation{now, src, SourceStatus{false, ok.error().message}});
        return std::nullopt;
    }
    auto ca = given_local_ ? Result<LocalCa>(*given_local_) : mad::local_ca(ca_name_);
    if (!ca) {
        sink.emit(Observation{now, src, SourceStatus{false, ca.error().message}});
        return std::nullopt;
    }
    SweepOptions sweep;
    sweep.sm_key = options_.sm_key;
    sweep.shard = options_.shard;
    for (const auto& p : ca->ports) {
        if (p.port == port_num_) sweep.sm_lid = p.sm_lid;
        if (plans) plans->push_back({p.port, p.lid, p.port == port_num_});
    }
    if (local_guid) *local_guid = ca->node_guid;
    return sweep;
}

std::vector<common::Figure> MadSource::figures() const {
    using K = common::Figure::Kind;
    auto n = [](uint64_t v) { return static_cast<double>(v); };
    std::vector<common::Figure> figures{
        {"mad_sweeps_total", "MAD sweeps run (passes of the scope, refreshes not counted).",
         K::counter, n(sweeps_)},
        {"mad_sweep_last_duration_seconds", "Wall time of the last sweep.", K::gauge,
         to_seconds(last_sweep_duration_)},
        {"mad_sweep_last_nodes", "Nodes the last sweep covered.", K::gauge, n(last_nodes_)},
        {"mad_sweep_last_silent_nodes",
         "Nodes of the last sweep that answered no PortInfo (see rdmadiag_device_reachable).",
         K::gauge, n(last_silent_nodes_)},
        {"mad_sweep_mads_sent_total", "MADs sent, retries and resends included.", K::counter,
         n(total_stats_.sent)},
        {"mad_sweep_mads_answered_total", "MADs answered.", K::counter, n(total_stats_.answered)},
        {"mad_sweep_retries_total", "Attempts sent again after a loss.", K::counter,
         n(total_stats_.retries)},
        {"mad_sweep_timeouts_total", "Attempts that ran out of time.", K::counter,
         n(total_stats_.timeouts)},
        {"mad_sweep_presumed_lost_total",
         "Attempts given up before their timeout: later MADs to the same target were answered.",
         K::counter, n(total_stats_.presumed_lost)},
        {"mad_sweep_failed_total", "Requests that got no answer at all (each costs only itself).",
         K::counter, n(total_stats_.failed)},
        {"mad_sweep_window_cuts_total",
         "Times a target's window of outstanding MADs shrank after a loss.", K::counter,
         n(total_stats_.window_cuts)},
        {"mad_sweep_discoveries_total", "Subnet discoveries run (scheduled or brought forward).",
         K::counter, n(discoveries_)},
    };
    if (!options_.traps) return figures;
    auto trap_figures = traps_.figures();
    trap_figures.push_back({"mad_trap_discoveries_total",
                            "Discoveries run sooner than scheduled because a trap asked.",
                            K::counter, n(trap_discoveries_)});
    trap_figures.push_back({"mad_trap_node_reads_total",
                            "Nodes whose PortInfo and P_Key tables a trap had read again.",
                            K::counter, n(trap_node_reads_)});
    figures.insert(figures.end(), trap_figures.begin(), trap_figures.end());
    return figures;
}

void MadSource::emit_reading(const SubnetReading& reading, uint64_t local_guid, TimePoint now,
                             sources::ObservationSink& sink, bool whole) {
    mad::ObservationNaming naming;
    if (!options_.subnet) {
        naming.local_name = ca_name_;
        naming.local_guid = local_guid;
    }
    const std::string src(name());
    mad::emit_observations(reading, naming, now, src, whole,
                           [&sink](Observation obs) { sink.emit(std::move(obs)); });
    if (!whole) return;
    bool up = !reading.nodes.empty();
    sink.emit(Observation{
        now, src,
        SourceStatus{
            up, up ? "" : (reading.errors.empty() ? "nothing answered" : reading.errors.front())}});
}

void MadSource::poll(TimePoint now, sources::ObservationSink& sink) {
    if (options_.subnet) return poll_subnet(now, sink);
    std::vector<LocalPortPlan> plans;
    uint64_t local_guid = 0;
    auto sweep = prepare(now, sink, &plans, &local_guid);
    if (!sweep) return;
    mad::MadEngine engine(*transport_, options_.engine);
    mad::MadSweeper sweeper(engine, *sweep);
    const auto start = std::chrono::steady_clock::now();
    const SubnetReading reading = sweeper.sweep_local(plans);
    record_sweep(engine.stats(), reading, std::chrono::steady_clock::now() - start);
    emit_reading(reading, local_guid, now, sink, true);
}

void MadSource::record_sweep(const MadEngineStats& stats, const SubnetReading& reading,
                             std::chrono::steady_clock::duration took) {
    last_stats_ = stats;
    total_stats_ += stats;
    ++sweeps_;
    last_sweep_duration_ = std::chrono::duration_cast<Duration>(took);
    last_nodes_ = reading.nodes.size();
    last_silent_nodes_ =
        static_cast<size_t>(std::count_if(reading.nodes.begin(), reading.nodes.end(),
                                          [](const NodeReading& n) { return !node_answered(n); }));
}

void MadSource::poll_subnet(TimePoint now, sources::ObservationSink& sink) {
    take_traps(now, sink);
    SweepPlan plan = schedule_.due(now);
    if (!plan.any()) return;
    if (topology_.empty()) plan.discover = true;
    auto sweep = prepare(now, sink, nullptr, nullptr);
    if (!sweep) return;
    mad::MadEngine engine = make_engine(options_.engine);
    keep_subscribed(engine, sweep->sm_lid, now, plan.discover, sink);
    mad::MadSweeper sweeper(engine, *sweep);
    const auto start = std::chrono::steady_clock::now();
    SubnetReading reading = plan.discover ? sweeper.sweep_subnet(plan.parts)
                                          : sweeper.sweep_known(topology_, plan.parts);
    record_sweep(engine.stats(), reading, std::chrono::steady_clock::now() - start);
    const bool shape_changed = !plan.discover && (last_silent_nodes_ > 0 || links_changed(reading));
    // Carries over what this pass learned (a switch's SwitchInfo, a node's PMA ClassPortInfo).
    if (!reading.nodes.empty()) topology_ = topology_of(reading);
    if (plan.discover) {
        ++discoveries_;
        if (std::exchange(discovery_asked_by_trap_, false)) ++trap_discoveries_;
    }
    schedule_.ran(plan, now);
    if (shape_changed) schedule_.rediscover();
    emit_reading(reading, 0, now, sink, true);
    // Reports that came during the pass: what they ask for happens after it, since a discovery
    // under way may have read the SA before the change.
    act_on_traps(now, sink);
}

// Traps reach the source three ways, each for a reason. The umad descriptor is handed to the
// collector's loop (event_fds), so a Report is answered within the SA's timeout and its table
// reads run at once. A Report that arrives while a pass runs is taken by the pass's engine
// (it is not an answer: its method is a request's). And every poll reads what waits first:
// the port is opened on the first poll (the loop watches the descriptor from then on), and
// under a preloaded simulator (umad2sim) the descriptor is the preload's own number, which no
// epoll can watch. A discovery a trap asks for runs at the next poll, not at once: the SM
// forwards the trap before its own sweep has updated the SA's records.
void MadSource::take_traps(TimePoint now, sources::ObservationSink& sink) {
    if (!options_.traps || !transport_) return;
    mad::MadEngine engine = make_engine(options_.engine);
    if (auto ok = engine.receive_waiting(); !ok) {
        sink.emit(Observation{now, std::string(name()),
                              SampleError{"mad traps", ok.error().message, ok.error().code}});
    }
    total_stats_ += engine.stats();
    act_on_traps(now, sink);
}

void MadSource::act_on_traps(TimePoint now, sources::ObservationSink& sink) {
    const TrapActions actions = traps_.take_actions();
    if (actions.rediscover) {
        schedule_.rediscover();
        discovery_asked_by_trap_ = true;
    }
    if (actions.refresh_lids.empty()) return;
    std::vector<NodeReading> nodes;
    for (const NodeReading& node : topology_) {
        const bool named = std::any_of(node.ports.begin(), node.ports.end(), [&](const auto& p) {
            const uint16_t lid = p.info ? p.info->lid : p.pma_lid;
            return lid != 0 && actions.refresh_lids.count(lid) > 0;
        });
        if (named || actions.refresh_lids.count(node.lid()) > 0) nodes.push_back(node);
    }
    trap_node_reads_ += nodes.size();
    read_again(std::move(nodes), now, sink);
}

void MadSource::keep_subscribed(MadEngine& engine, uint16_t sm_lid, TimePoint now, bool discovering,
                                sources::ObservationSink& sink) {
    if (!options_.traps || !traps_.should_subscribe(sm_lid, now, discovering)) return;
    if (auto ok = traps_.subscribe(engine, sm_lid, options_.sm_key.value_or(0), now); !ok) {
        // Not a failure of the source: the schedules find every change, only later.
        sink.emit(
            Observation{now, std::string(name()), SampleError{"mad traps", ok.error().message, 0}});
    }
}

MadEngine MadSource::make_engine(MadEngineOptions options) {
    MadEngine engine(*transport_, options);
    if (options_.traps) {
        engine.on_unsolicited([this](const ReceivedMad& mad) { traps_.take(mad, *transport_); });
    }
    return engine;
}

std::vector<int> MadSource::event_fds() const {
    if (!options_.traps || !transport_) return {};
    const int fd = transport_->event_fd();
    if (fd < 0) return {};
    return {fd};
}

void MadSource::on_readable(int fd, TimePoint now, sources::ObservationSink& sink) {
    (void)fd;  // the source has one descriptor
    take_traps(now, sink);
}

void MadSource::read_again(std::vector<NodeReading> nodes, TimePoint now,
                           sources::ObservationSink& sink) {
    if (nodes.empty()) return;
    auto sweep = prepare(now, sink, nullptr, nullptr);
    if (!sweep) return;
    mad::MadEngine engine = make_engine(options_.engine);
    mad::MadSweeper sweeper(engine, *sweep);
    const SubnetReading reading = sweeper.sweep_known(std::move(nodes), SweepParts{true, false});
    total_stats_ += engine.stats();
    emit_reading(reading, 0, now, sink, false);
}

void MadSource::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    // Local scope: a sweep of this host's CA costs milliseconds; one code path is worth more.
    if (!options_.subnet) return poll(now, sink);
    // Subnet scope: that one port's PortInfo and P_Key table, not the whole fabric again.
    std::vector<NodeReading> one;
    for (const NodeReading& node : topology_) {
        if (guid_device_name(node.info.node_guid) != port.device) continue;
        for (const PortReading& p : node.ports) {
            if (p.port != port.port) continue;
            NodeReading n = node;
            n.ports = {p};
            one.push_back(std::move(n));
        }
    }
    // Not a port this source found: nothing of its to re-read.
    read_again(std::move(one), now, sink);
}

Result<std::unique_ptr<sources::Source>> make_mad_source(const sources::SourceSettings& settings) {
    auto options = RDMADIAG_TRY(parse_mad_options(settings));
    return std::unique_ptr<sources::Source>(std::make_unique<MadSource>(std::move(options)));
}

}  // namespace rdmadiag::mad
