#include "collector/sources/sysfs/sysfs_source.hpp"

#include <algorithm>
#include <cerrno>

#include "collector/sources/sysfs/sysfs_pass.hpp"

namespace rdmadiag::sysfs {

namespace {

constexpr std::string_view kNoDevices = "no RDMA devices under ";

}  // namespace

SysfsSource::SysfsSource(sources::SourceSettings settings,
                         std::unique_ptr<sysfs::SysfsReader> reader, CounterReaders counter_readers)
    : settings_(std::move(settings)),
      reader_(std::move(reader)),
      methods_(std::move(counter_readers)),
      class_dir_(settings_.sysfs_root + "/class/infiniband"),
      full_table_interval_(full_table_interval(settings_)) {}

Result<std::vector<std::string>> SysfsSource::list_devices() const {
    auto names = reader_->list_held_dir(class_dir_);
    if (!names) {
        if (names.error().code == ENOENT) {
            return make_error(std::string(kNoDevices) + class_dir_, ENOENT);
        }
        return names.error();
    }
    if (names->empty()) return make_error(std::string(kNoDevices) + class_dir_, ENODEV);
    std::vector<std::string> selected;
    for (auto& n : *names) {
        if (!n.empty() && n.front() != '.' && settings_.device_selected(n)) {
            selected.push_back(std::move(n));
        }
    }
    if (selected.empty()) {
        return make_error("the device filter excludes all " + std::to_string(names->size()) +
                              " RDMA devices under " + class_dir_,
                          ENODEV);
    }
    std::sort(selected.begin(), selected.end());
    return selected;
}

sources::Availability SysfsSource::availability() const {
    auto devices = list_devices();
    if (!devices) return sources::Availability{false, devices.error().message};
    return sources::Availability{true, ""};
}

void SysfsSource::forget_devices_except(const std::vector<std::string>& devices) {
    // Nearly every pass finds the devices of the last one.
    if (devices == last_devices_) return;
    last_devices_ = devices;
    // So that a device that comes back is described, listed and opened afresh.
    auto gone = [&](const std::string& d) {
        return !std::binary_search(devices.begin(), devices.end(), d);
    };
    for (const auto& d : described_) {
        if (gone(d)) reader_->release(class_dir_ + "/" + d);
    }
    std::erase_if(described_, gone);
    // Subjects are "DEVICE FILE" or "DEVICE:PORT FILE".
    std::erase_if(missing_, [&](const std::string& subject) {
        return gone(subject.substr(0, subject.find_first_of(": ")));
    });
    std::erase_if(without_pma_, gone);
    std::erase_if(known_ports_, [&](const auto& kv) { return gone(kv.first.device); });
    std::erase_if(ports_, [&](const auto& kv) { return gone(kv.first); });
}

void SysfsSource::forget_listings() {
    ports_.clear();
    for (auto& [port, known] : known_ports_) known.listings = {};
}

void SysfsSource::forget_listings_of(const std::string& device) {
    ports_.erase(device);
    for (auto it = known_ports_.lower_bound(PortRef{device, 0});
         it != known_ports_.end() && it->first.device == device; ++it) {
        it->second.listings = {};
    }
}

KnownPort& SysfsSource::known_port(const PortRef& port) {
    auto [it, added] = known_ports_.try_emplace(port);
    if (added)
        it->second.dir = class_dir_ + "/" + port.device + "/ports/" + std::to_string(port.port);
    return it->second;
}

std::string SysfsSource::unavailable_summary() {
    size_t ports = 0;
    const std::pair<const PortRef, KnownPort>* first = nullptr;
    for (const auto& kv : known_ports_) {
        if (kv.second.unavailable.empty()) continue;
        ++ports;
        if (!first) first = &kv;
    }
    unavailable_ports_ = ports;
    if (!first) return {};
    std::string out = "counters not available on " + std::to_string(ports) +
                      (ports == 1 ? " port (" : " ports (first ");
    out += first->first.to_string() + " " + first->second.unavailable + ")";
    return out;
}

std::vector<common::Figure> SysfsSource::figures() const {
    auto out = methods_.figures();
    out.push_back({"sysfs_counters_unavailable_ports",
                   "ports whose PMA counters the kernel says are not available (\"N/A (no PMA)\", "
                   "or a read the kernel refuses for want of a PMA), as the last counter poll "
                   "found them: no values, and no errors",
                   common::Figure::Kind::gauge, static_cast<double>(unavailable_ports_)});
    out.push_back({"sysfs_narrow_fast_ports",
                   "ports whose narrow error counters, each read from its own file, the last "
                   "counter poll read on the fast cadence (they moved, or the port's state "
                   "changed, within the last slow interval)",
                   common::Figure::Kind::gauge, static_cast<double>(narrow_fast_ports_)});
    return out;
}

bool SysfsSource::take_device_list(Pass& pass, bool whole_tables) {
    auto devices = list_devices();
    listed_ = static_cast<bool>(devices);
    vanished_.clear();
    if (!devices) {
        pass.emit(SourceStatus{false, devices.error().message});
        pass.emit(DeviceList{});
        forget_devices_except({});
        return false;
    }
    // Nearly every listing finds the devices of the last one: the engine is told when they
    // changed, and with the whole tables.
    if (whole_tables || *devices != last_devices_) pass.emit(DeviceList{*devices});
    forget_devices_except(*devices);
    return true;
}

bool SysfsSource::device_vanished(std::string_view device, int code) {
    if (code != ENOENT && code != ENODEV) return false;
    if (vanished_.contains(device)) return true;
    if (reader_->exists(class_dir_ + "/" + std::string(device))) return false;
    vanished_.emplace(device);
    return true;
}

bool held_reads_wanted(const sources::SourceSettings& settings) {
    const auto reads = settings.options.text("sysfs.reads").value_or("auto");
    if (reads != "auto") return reads == "held";
    return is_mounted_sysfs(settings.sysfs_root);
}

Duration full_table_interval(const sources::SourceSettings& settings) {
    return settings.options.get<Duration>("sysfs.pkey_full_interval")
        .value_or(std::max(kDefaultFullTableInterval, settings.pkey_interval));
}

Result<std::unique_ptr<sources::Source>> make_sysfs_source(
    const sources::SourceSettings& settings, std::unique_ptr<sysfs::SysfsReader> reader) {
    return make_sysfs_source(settings, std::move(reader), CounterReaders{});
}

Result<std::unique_ptr<sources::Source>> make_sysfs_source(const sources::SourceSettings& settings,
                                                           CounterReaders counter_readers) {
    return make_sysfs_source(settings,
                             std::make_unique<sysfs::PosixSysfsReader>(
                                 held_reads_wanted(settings) ? held_file_budget() : 0),
                             std::move(counter_readers));
}

Result<std::unique_ptr<sources::Source>> make_sysfs_source(
    const sources::SourceSettings& settings, std::unique_ptr<sysfs::SysfsReader> reader,
    CounterReaders counter_readers) {
    if (settings.counter_interval <= Duration::zero() ||
        settings.slow_counter_interval <= Duration::zero() ||
        settings.pkey_interval <= Duration::zero()) {
        return make_error("sysfs source: counter and P_Key intervals must be positive", EINVAL);
    }
    if (settings.sysfs_root.empty()) return make_error("sysfs source: empty sysfs root", EINVAL);
    return std::unique_ptr<sources::Source>(
        std::make_unique<SysfsSource>(settings, std::move(reader), std::move(counter_readers)));
}

Result<std::unique_ptr<sources::Source>> make_sysfs_source(
    const sources::SourceSettings& settings) {
    return make_sysfs_source(settings, CounterReaders{});
}

}  // namespace rdmadiag::sysfs