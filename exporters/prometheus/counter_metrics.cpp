// Port counters as monotonic totals (across resets, wraps and saturation), with flags for the
// narrow counters that sit at their maximum and so stopped counting.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

namespace {

// sysfs and the PMA count these in units of 4 octets.
constexpr double kDataCounterUnit = 4.0;

bool is_data_counter(const CounterState& c, std::string_view name) {
    return c.kind == CounterKind::pma && c.name == name;
}

// One family over every counter of every port: fn(counter) returns the value, or nullopt.
template <class Fn>
void per_counter(const Snapshot& snap, MetricWriter& out, std::string_view name,
                 std::string_view help, MetricType type, Fn&& fn) {
    out.begin(name, help, type);
    for_each_port(snap, [&](const PortSnapshot& p) {
        for (const auto& c : p.counters) {
            std::optional<double> value = fn(c);
            if (!value) continue;
            PortLabels l(p.ref);
            l.with("counter", c.name).with("kind", to_string(c.kind));
            out.sample(l.span(), *value);
        }
    });
}

void data_bytes(const Snapshot& snap, MetricWriter& out, std::string_view counter,
                std::string_view name, std::string_view help) {
    out.begin(name, help, MetricType::counter);
    for_each_port(snap, [&](const PortSnapshot& p) {
        for (const auto& c : p.counters) {
            if (is_data_counter(c, counter)) {
                out.sample(PortLabels(p.ref).span(),
                           static_cast<double>(c.total) * kDataCounterUnit);
            }
        }
    });
}

}  // namespace

void add_counter_metrics(const Snapshot& snap, MetricWriter& out) {
    const bool full = out.full();
    per_counter(snap, out, "rdmadiag_port_stat_total",
                "Port counter as a monotonic total, in the counter's own unit (sysfs file name or "
                "IBA field). Standard detail leaves out the PMA data counters, exported in bytes "
                "as rdmadiag_port_{transmitted,received}_bytes_total.",
                MetricType::counter, [full](const CounterState& c) -> std::optional<double> {
                    if (!full && (is_data_counter(c, "port_xmit_data") ||
                                  is_data_counter(c, "port_rcv_data")))
                        return std::nullopt;
                    return static_cast<double>(c.total);
                });
    per_counter(snap, out, "rdmadiag_port_stat_resets_total",
                "Times the counter went backwards and was taken as a reset (standard detail: only "
                "counters reset at least once).",
                MetricType::counter, [full](const CounterState& c) -> std::optional<double> {
                    if (!full && c.resets == 0) return std::nullopt;
                    return static_cast<double>(c.resets);
                });
    per_counter(snap, out, "rdmadiag_port_stat_saturated",
                "Whether a narrow counter sits at its maximum: events beyond it are not counted "
                "until it is cleared (standard detail: only counters that sit there).",
                MetricType::gauge, [full](const CounterState& c) -> std::optional<double> {
                    if (c.width >= 64 || (!full && !c.saturated)) return std::nullopt;
                    return c.saturated ? 1 : 0;
                });
    data_bytes(snap, out, "port_xmit_data", "rdmadiag_port_transmitted_bytes_total",
               "Data octets transmitted on the port.");
    data_bytes(snap, out, "port_rcv_data", "rdmadiag_port_received_bytes_total",
               "Data octets received on the port.");
}

}  // namespace rdmadiag::prom
