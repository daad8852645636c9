#pragma once
// The "verbs" source: every selected verbs device's async event stream, read from the collector's
// event loop. event_fds() are the devices' async descriptors; poll() re-lists the devices every
// few seconds to follow hot-plug and reopen lost contexts; refresh() re-reads a port with
// ibv_query_port and ibv_query_pkey (the `device` P_Key view).
//
// Which ports have event coverage is stated in the SourceStatus reason ("watching async events
// on rxe0:1"): a port that is not listed there gets no PKEY_CHANGE from rdmadiag.
//
// Events on QPs, CQs, SRQs and WQs reach only the context that created them, so this source
// sees the device and port events every process sees, not another process's QP errors.

#include <memory>
#include <string>

#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"
#include "collector/sources/verbs/device_lifecycle.hpp"
#include "collector/sources/verbs/verbs_backend.hpp"

namespace rdmadiag::verbs {

class VerbsEventSource final : public sources::Source {
public:
    static constexpr std::string_view kName = "verbs";
    static constexpr Duration kDefaultRescanInterval = std::chrono::seconds(2);

    // Opens the selected devices at once, so their descriptors are ready before the loop starts;
    // what that first scan observed is emitted by the first poll() or on_readable().
    VerbsEventSource(std::unique_ptr<VerbsBackend> backend, const sources::SourceSettings& settings,
                     Duration rescan_interval, TimePoint now);

    std::string_view name() const override { return kName; }
    sources::Availability availability() const override;
    Duration poll_interval() const override { return rescan_interval_; }
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    std::vector<int> event_fds() const override { return devices_.fds(); }
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink) override;
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) override;

    std::vector<PortRef> watched_ports() const { return devices_.watched_ports(); }

private:
    void flush_first_scan(sources::ObservationSink& sink);

    std::unique_ptr<VerbsBackend> backend_;
    sources::SourceSettings settings_;
    Duration rescan_interval_;
    VerbsDeviceSet devices_;
    sources::VectorSink first_scan_;
};

// The option verbs.rescan_interval (verbs_options.cpp).
Duration verbs_rescan_interval(const sources::SourceSettings& settings);

}  // namespace rdmadiag::verbs
