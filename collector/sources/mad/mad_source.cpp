#include "collector/sources/mad/mad_source.hpp"

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
    if (auto* v = get("mad.in_flight")) {
        auto n = parse_uint(*v, "mad.in_flight");
        if (!n || *n < 1 || *n > 4096) return make_error("mad.in_flight must be 1..4096");
        o.engine.in_flight = static_cast<unsigned>(*n);
    }
    return o;
}

MadSource::MadSource(MadSourceOptions options) : options_(std::move(options)) {}
MadSource::~MadSource() = default;

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

void MadSource::poll(TimePoint now, sources::ObservationSink& sink) {
    std::string src(name());
    if (auto ok = ensure_open(); !ok) {
        sink.emit(Observation{now, src, SourceStatus{false, ok.error().message}});
        return;
    }
    auto ca = mad::local_ca(ca_name_);
    if (!ca) {
        sink.emit(Observation{now, src, SourceStatus{false, ca.error().message}});
        return;
    }
    mad::SweepOptions sweep;
    sweep.sm_key = options_.sm_key;
    std::vector<mad::LocalPortPlan> plans;
    for (const auto& p : ca->ports) {
        if (p.port == port_num_) sweep.sm_lid = p.sm_lid;
        plans.push_back({p.port, p.lid, p.port == port_num_});
    }
    mad::MadEngine engine(*transport_, options_.engine);
    mad::MadSweeper sweeper(engine, sweep);
    mad::SubnetReading reading =
        options_.subnet ? sweeper.sweep_subnet() : sweeper.sweep_local(plans);
    last_stats_ = engine.stats();
    mad::ObservationNaming naming;
    if (!options_.subnet) {
        naming.local_name = ca_name_;
        naming.local_guid = ca->node_guid;
    }
    for (auto& obs : mad::reading_to_observations(reading, naming, now, src))
        sink.emit(std::move(obs));
    bool up = !reading.nodes.empty();
    sink.emit(Observation{
        now, src,
        SourceStatus{
            up, up ? "" : (reading.errors.empty() ? "nothing answered" : reading.errors.front())}});
}

void MadSource::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    // A sweep reads a port's table in a handful of MADs; re-reading everything in the scope keeps
    // one code path and costs milliseconds.
    (void)port;
    poll(now, sink);
}

Result<std::unique_ptr<sources::Source>> make_mad_source(const sources::SourceSettings& settings) {
    auto options = RDMADIAG_TRY(parse_mad_options(settings));
    return std::unique_ptr<sources::Source>(std::make_unique<MadSource>(std::move(options)));
}

}  // namespace rdmadiag::mad
