#include "collector/sources/verbs/verbs_event_source.hpp"

namespace rdmadiag::verbs {

VerbsEventSource::VerbsEventSource(std::unique_ptr<VerbsBackend> backend,
                                   const sources::SourceSettings& settings,
                                   Duration rescan_interval, TimePoint now)
    : backend_(std::move(backend)),
      settings_(settings),
      rescan_interval_(rescan_interval),
      devices_(
          *backend_, [this](const std::string& d) { return settings_.device_selected(d); },
          std::string(kName)) {
    devices_.scan(now, first_scan_);
}

sources::Availability VerbsEventSource::availability() const {
    if (!devices_.open_devices().empty()) return sources::Availability{true, {}};
    return sources::Availability{false, devices_.down_reason()};
}

void VerbsEventSource::flush_first_scan(sources::ObservationSink& sink) {
    for (auto& obs : first_scan_.observations) sink.emit(std::move(obs));
    first_scan_.observations.clear();
}

void VerbsEventSource::poll(TimePoint now, sources::ObservationSink& sink) {
    flush_first_scan(sink);
    devices_.scan(now, sink);
}

void VerbsEventSource::on_readable(int fd, TimePoint now, sources::ObservationSink& sink) {
    flush_first_scan(sink);
    devices_.on_readable(fd, now, sink);
}

void VerbsEventSource::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    flush_first_scan(sink);
    devices_.refresh(port, now, sink);
}

Duration verbs_rescan_interval(const sources::SourceSettings& settings) {
    return settings.options.get<Duration>("verbs.rescan_interval")
        .value_or(VerbsEventSource::kDefaultRescanInterval);
}

}  // namespace rdmadiag::verbs
