#pragma once
// The sysfs source: reads <root>/class/infiniband/<device>/... and turns it into observations.
//
// Four cadences: the fast counter tier, and the state of ports that are not Active, every
// counter_interval; the slow tier (data, packet and hw counters:
// collector/sources/counter_tiers.hpp) every slow_counter_interval; port states, GIDs and the P_Key
// tables every pkey_interval, plus on refresh(port) after an event (an Active port's state comes
// with the slow tier and the tables), and the device list with them (at once when a read finds a
// device gone); device identity and the folder listings with the whole tables. Each entry of a
// P_Key table is a driver query (a firmware command on mlx5), so a tables pass reads a table's
// head: its entries up to the last one in use and kTableGuard more, where a subnet manager puts a
// new P_Key (it fills the first free entries). The rest of the table is carried from the last whole
// read, and the whole table is read again when the head changed, after a state change or rising
// P_Key violations, on refresh, and at least every sysfs.pkey_full_interval (default 5 minutes).
// GID tables (255 entries on a RoCE port) are read the same way.
//
// A value file that cannot be read or parsed costs only that value: it is left out (never 0) and
// reported as a SampleError. A file the kernel does not create for that device (pkeys/ of an iWARP
// port, counters/ without a PMA, ...) is absent, and no error.

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/counter_tiers.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"
#include "collector/sources/sysfs/counter_methods.hpp"
#include "collector/sources/sysfs/known_port.hpp"
#include "collector/sources/sysfs/sysfs_parsers.hpp"
#include "collector/sources/sysfs/sysfs_reader.hpp"
#include "collector/sources/sysfs/twin_counter.hpp"

namespace rdmadiag::sysfs {

constexpr std::string_view kSysfsSourceName = "sysfs";

// Entries past the last one in use that a tables pass reads too. A subnet manager puts a new
// P_Key, and the kernel a new GID, in the first free entry: inside the used part, or the first
// entry after it. One more is margin; any change further out is seen by the whole reads.
constexpr size_t kTableGuard = 2;
constexpr Duration kDefaultFullTableInterval = std::chrono::minutes(5);

class SysfsSource final : public sources::Source {
public:
    // `counter_readers`: cheaper ways to read counters/ and hw_counters/ (counter_methods.hpp);
    // without them every counter is read from its file.
    SysfsSource(sources::SourceSettings settings, std::unique_ptr<sysfs::SysfsReader> reader,
                CounterReaders counter_readers = {});

    std::string_view name() const override { return kSysfsSourceName; }
    sources::Availability availability() const override;

    // The shortest of the cadences; poll() works out which parts are due.
    Duration poll_interval() const override;
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    void refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) override;
    // With counter readers: the ports each folder was read for by each method, last counter poll.
    // And how many ports' narrow counters the last pass read on the fast cadence from files.
    std::vector<common::Figure> figures() const override;

    // Everything, now, whatever is due (one-shot commands, benchmarks). Does not move the
    // cadences.
    void sample_all(TimePoint now, sources::ObservationSink& sink);

    // <root>/class/infiniband
    const std::string& class_dir() const { return class_dir_; }

private:
    struct Parts {
        sources::CounterTiers counters;  // counters/, counters_ext/, hw_counters/ by tier
        bool tables = false;             // device identity, GIDs, P_Key tables
        bool whole_tables = false;       // every P_Key table whole, not only its head
    };
    class Pass;

    void sample(TimePoint now, sources::ObservationSink& sink, Parts parts);
    // One device on a pass: its identity when due, and each of its ports' due parts.
    void sample_device(Pass& pass, const std::string& dev, Parts parts);
    // Lists the devices, tells the engine of a change, and drops what is kept for devices gone;
    // false (and the source down) when they cannot be listed.
    bool take_device_list(Pass& pass, bool whole_tables);
    // Whether a read of `device`'s files failed with `code` because the device went away (its
    // folder is gone): the pass then leaves the device alone and lists the devices at its end.
    bool device_vanished(std::string_view device, int code);
    bool listed_ = false;                          // the last device listing succeeded
    std::set<std::string, std::less<>> vanished_;  // devices found gone since the last listing
    // Selected device names, sorted; an error saying why when the source is down.
    Result<std::vector<std::string>> list_devices() const;
    // Never shorter than counter_interval: the slow tier is not read more often than the fast.
    Duration slow_counter_interval() const;
    // How long narrow counters read from files stay on the fast cadence after they moved.
    Duration narrow_fast_hold() const { return slow_counter_interval(); }
    size_t narrow_fast_ports_ = 0;  // as the last counter pass left them
    // Where counters are not available, for the status, as the last counter pass left them.
    std::string unavailable_summary();
    std::string unavailable_;
    size_t unavailable_ports_ = 0;

    sources::SourceSettings settings_;
    std::unique_ptr<sysfs::SysfsReader> reader_;
    CounterMethods methods_;
    std::string class_dir_;
    std::optional<TimePoint> next_counters_;
    std::optional<TimePoint> next_slow_counters_;
    std::optional<TimePoint> next_tables_;
    std::optional<TimePoint> next_whole_tables_;

    std::set<std::string> described_;        // devices whose identity was read
    std::vector<std::string> last_devices_;  // as forget_devices_except last saw them
    // Devices that by their node type have no PMA (iWARP, usNIC).
    std::set<std::string> without_pma_;
    // The subjects reported missing (ENOENT) while their devices stay.
    std::set<std::string> missing_;

    std::map<PortRef, KnownPort> known_ports_;
    KnownPort& known_port(const PortRef& port);
    // Each device's ports, listed with the whole tables and kept between.
    std::map<std::string, std::vector<uint32_t>> ports_;
    Duration full_table_interval_;

    // Drops what the source knows of devices not in `devices` (sorted).
    void forget_devices_except(const std::vector<std::string>& devices);
    void forget_listings();
    void forget_listings_of(const std::string& device);
};

// Whether sysfs.reads (auto | held | reopen, default auto) lets the source keep the files it reads
// on every pass open (PosixSysfsReader): with auto, only when settings.sysfs_root is a mounted
// sysfs.
bool held_reads_wanted(const sources::SourceSettings& settings);

// sysfs.pkey_full_interval: how often each P_Key table is read whole, at least pkey_interval
// (kDefaultFullTableInterval when not given).
Duration full_table_interval(const sources::SourceSettings& settings);

// The factory the source registry calls: reads settings.sysfs_root through the real file system.
Result<std::unique_ptr<sources::Source>> make_sysfs_source(const sources::SourceSettings& settings);
// The same over any reader (tests inject failures through it).
Result<std::unique_ptr<sources::Source>> make_sysfs_source(
    const sources::SourceSettings& settings, std::unique_ptr<sysfs::SysfsReader> reader);
Result<std::unique_ptr<sources::Source>> make_sysfs_source(
    const sources::SourceSettings& settings, std::unique_ptr<sysfs::SysfsReader> reader,
    CounterReaders counter_readers);
// Through the real file system, with counter readers (the registry gives RDMA netlink and the
// local PMA when counter_methods_wanted() says so).
Result<std::unique_ptr<sources::Source>> make_sysfs_source(const sources::SourceSettings& settings,
                                                           CounterReaders counter_readers);

}  // namespace rdmadiag::sysfs
