#pragma once
// Keeps one open context per selected verbs device and follows devices as they come and go:
// a device that appears is opened, one that leaves the list (hot-unplug, rxe link deleted) is
// closed, one whose context is lost (DEVICE_FATAL, a read error) is closed and reopened on the
// next scan. Every event read is acknowledged, whatever it is.
//
// Closing promptly matters: rxe has no way to take a context away from its owner, so
// `rdma link delete` waits until every process that opened the device closes it. The device
// leaves ibv_get_device_list as soon as the deletion starts, so the next scan lets it finish.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/model/observation.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/verbs/verbs_backend.hpp"

namespace rdmadiag::verbs {

class VerbsDeviceSet {
public:
    using Selector = std::function<bool(const std::string& device)>;

    VerbsDeviceSet(VerbsBackend& backend, Selector selected, std::string source_name);

    // Lists the devices, opens new ones, closes those gone. Emits the first port reads of a
    // newly opened device, open failures (once per device and message), and the device list
    // and source status whenever they change.
    void scan(TimePoint now, sources::ObservationSink& sink);

    // Reads every event waiting on one device's descriptor (up to a bound, so one busy device
    // cannot starve the loop), acks each, emits it, and re-reads the port when it says to.
    void on_readable(int fd, TimePoint now, sources::ObservationSink& sink);

    // Re-reads one port, or every port of the device when port.port is 0.
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink);

    std::vector<int> fds() const;
    std::vector<std::string> open_devices() const;
    // Ports whose events this source delivers: every port of every open device.
    std::vector<PortRef> watched_ports() const;
    // Why nothing is watched, or empty when something is.
    const std::string& down_reason() const { return down_reason_; }

    static constexpr int kMaxEventsPerWakeup = 256;

private:
    struct Entry {
        VerbsDeviceId id;
        std::unique_ptr<VerbsDevice> device;
        uint32_t ports = 0;
        bool lost = false;  // context unusable: close at the end of the current call
    };

    void open_device(const VerbsDeviceId& id, TimePoint now, sources::ObservationSink& sink);
    void read_port(Entry& e, uint32_t port, bool with_pkeys, TimePoint now,
                   sources::ObservationSink& sink);
    void close_lost();
    void publish(TimePoint now, sources::ObservationSink& sink);
    void emit(TimePoint now, sources::ObservationSink& sink, ObservationBody body) const;

    VerbsBackend& backend_;
    Selector selected_;
    std::string source_name_;
    std::map<std::string, Entry> open_;
    std::map<std::string, std::string> open_errors_;  // device -> last open error reported
    std::string down_reason_ = "not scanned yet";
    std::string list_error_;   // last listing failure reported
    std::string lost_reason_;  // what made a context unusable during the current call
    std::optional<SourceStatus> last_status_;
    std::optional<DeviceList> last_list_;
};

// "rxe0:1, mlx5_0:1-2": the ports an event source covers, compactly.
std::string describe_ports(const std::vector<PortRef>& ports);

}  // namespace rdmadiag::verbs
