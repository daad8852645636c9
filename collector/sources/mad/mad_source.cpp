#include "collector/sources/mad/mad_source.hpp"

#include <algorithm>
#include <charconv>

#include "collector/sources/mad/mad_observations.hpp"
#include "collector/sources/mad/umad_transport.hpp"

namespace rdmadiag::mad {

namespace {

Result<uint64_t> parse_uint(std::string_view text, std::string_view what) {
    uint64_t value = 0;
    int base = 10;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        text.remove_prefix(2);
        base = 16;
    }
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
        return make_error(std::string(what) + ": '" + std::string(text) + "' is not a number");
    }
    return value;
}

}  // namespace

Result<MadSourceOptions> parse_mad_options(const sources::SourceSettings& settings) {
    MadSourceOptions o;
    o.interval = settings.pkey_interval;
    auto get = [&](const char* key) -> const std::string* {
        auto it = settings.extra.find(key);
        return it == settings.extra.end() ? nullptr : &it->second;
    };
    if (auto* v = get("mad.scope")) {
        if (*v == "subnet") {
            o.subnet = true;
        } else if (*v != "local") {
            return make_error("mad.scope must be local or subnet, not '" + *v + "'");
        }
    }
    if (auto* v = get("mad.ca")) o.ca = *v;
    if (auto* v = get("mad.port")) {
        auto n = parse_uint(*v, "mad.port");
        if (!n || *n > 254) return make_error("mad.port must be a port number 0..254");
        o.port = static_cast<int>(*n);
    }
    if (auto* v = get("mad.sm_key")) {
        o.sm_key = RDMADIAG_TRY(parse_uint(*v, "mad.sm_key"));
    }
    if (auto* v = get("mad.timeout")) {
        auto d = parse_duration(*v);
        if (!d || *d < std::chrono::milliseconds(1))
            return make_error("mad.timeout must be a duration of at least 1ms");
        o.engine.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    }
    if (auto* v = get("mad.retries")) {
        auto n = parse_uint(*v, "mad.retries");
        if (!n || *n > 20) return make_error("mad.retries must be 0..20");
        o.engine.retries = static_cast<unsigned>(*n);
    }
    if (auto* v = get("mad.concurrency")) {
        auto n = parse_uint(*v, "mad.concurrency");
        if (!n || *n < 1 || *n > 1024) return make_error("mad.concurrency must be 1..1024");
        o.engine.per_target = static_cast<unsigned>(*n);
    }
    if (auto* v = get("mad.shard")) {
        o.shard = RDMADIAG_TRY(parse_sweep_shard(*v));
        if (!o.subnet && o.shard.count > 1)
            return make_error("mad.shard splits a subnet: it needs mad.scope=subnet");
    }
    o.subnet_intervals.pkeys = settings.pkey_interval;
    for (auto [key, field] : {std::pair{"mad.discovery_interval", &SweepIntervals::discovery},
                              std::pair{"mad.pkey_interval", &SweepIntervals::pkeys},
                              std::pair{"mad.counter_interval", &SweepIntervals::counters}}) {
        if (auto* v = get(key)) {
            auto d = parse_duration(*v);
            if (!d || *d < std::chrono::seconds(1))
                return make_error(std::string(key) + " must be a duration of at least 1s");
            o.subnet_intervals.*field = *d;
        }
    }
    if (auto* v = get("mad.in_flight")) {
        auto n = parse_uint(*v, "mad.in_flight");
        if (!n || *n < 1 || *n > 4096) return make_error("mad.in_flight must be 1..4096");
        o.engine.in_flight = static_cast<unsigned>(*n);
    }
    return o;
}

MadSource::MadSource(MadSourceOptions options)
    : options_(std::move(options)), schedule_(options_.subnet_intervals) {}
MadSource::~MadSource() = default;

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
    auto ca = mad::local_ca(ca_name_);
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
    return {
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
    };
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
    SweepPlan plan = schedule_.due(now);
    if (!plan.any()) return;
    if (topology_.empty()) plan.discover = true;
    auto sweep = prepare(now, sink, nullptr, nullptr);
    if (!sweep) return;
    mad::MadEngine engine(*transport_, options_.engine);
    mad::MadSweeper sweeper(engine, *sweep);
    const auto start = std::chrono::steady_clock::now();
    SubnetReading reading = plan.discover ? sweeper.sweep_subnet(plan.parts)
                                          : sweeper.sweep_known(topology_, plan.parts);
    record_sweep(engine.stats(), reading, std::chrono::steady_clock::now() - start);
    const bool shape_changed = !plan.discover && (last_silent_nodes_ > 0 || links_changed(reading));
    // Carries over what this pass learned (a switch's SwitchInfo, a node's PMA ClassPortInfo).
    if (!reading.nodes.empty()) topology_ = topology_of(reading);
    schedule_.ran(plan, now);
    if (shape_changed) schedule_.rediscover();
    emit_reading(reading, 0, now, sink, true);
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
    if (one.empty()) return;  // not a port this source found: nothing of its to re-read
    auto sweep = prepare(now, sink, nullptr, nullptr);
    if (!sweep) return;
    mad::MadEngine engine(*transport_, options_.engine);
    mad::MadSweeper sweeper(engine, *sweep);
    const SubnetReading reading = sweeper.sweep_known(std::move(one), SweepParts{true, false});
    total_stats_ += engine.stats();
    emit_reading(reading, 0, now, sink, false);
}

Result<std::unique_ptr<sources::Source>> make_mad_source(const sources::SourceSettings& settings) {
    auto options = RDMADIAG_TRY(parse_mad_options(settings));
    return std::unique_ptr<sources::Source>(std::make_unique<MadSource>(std::move(options)));
}

}  // namespace rdmadiag::mad
