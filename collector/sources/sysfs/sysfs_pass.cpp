#include "collector/sources/sysfs/sysfs_pass.hpp"

#include <algorithm>

#include "collector/sources/sysfs/legacy_counters.hpp"

namespace rdmadiag::sysfs {

namespace {

std::string_view port_folder_name(PortFolder which) {
    switch (which) {
        case PortFolder::counters:
            return "counters";
        case PortFolder::counters_ext:
            return kLegacyCountersFolder;
        case PortFolder::hw_counters:
            return "hw_counters";
        case PortFolder::gids:
            return "gids";
    }
    return "";
}

}  // namespace

std::vector<uint32_t> numbered_entries(const std::vector<std::string>& names) {
    std::vector<uint32_t> out;
    out.reserve(names.size());
    for (const auto& n : names) {
        auto idx = sysfs::parse_table_index(n);
        if (idx) out.push_back(*idx);
    }
    std::sort(out.begin(), out.end());
    return out;
}

void SysfsSource::Pass::emit(ObservationBody body) {
    sink_.emit(Observation{now_, std::string(kSysfsSourceName), std::move(body)});
}

void SysfsSource::Pass::error(std::string subject, const Error& e) {
    // A file the kernel always makes that is not in the tree (a partial copy of sysfs) stays
    // missing: it is said once while its device stays, not on every pass that looks for it.
    if (e.code == ENOENT && !src_.missing_.insert(subject).second) return;
    emit(SampleError{std::move(subject), e.message, e.code});
}

std::optional<std::vector<std::string>> SysfsSource::Pass::listing(const std::string& path,
                                                                   const std::string& device,
                                                                   const std::string& subject,
                                                                   bool optional) {
    auto names = src_.reader_->list_dir(path);
    if (!names) {
        if (!(optional && names.error().code == ENOENT) &&
            !src_.device_vanished(device, names.error().code)) {
            error(subject, names.error());
        }
        return std::nullopt;
    }
    return std::move(names).value();
}

const std::vector<uint32_t>* SysfsSource::Pass::ports_of(const std::string& dev) {
    if (auto it = src_.ports_.find(dev); it != src_.ports_.end()) return &it->second;
    auto names = listing(device_dir(dev) + "/ports", dev, dev + " ports", false);
    if (!names) return nullptr;
    return &(src_.ports_[dev] = numbered_entries(*names));
}

std::optional<Listing>& SysfsSource::Pass::listed_files(const PortRef& port, KnownPort& known,
                                                        PortFolder which, bool optional,
                                                        bool numbered) {
    FolderListing& kept = known.listings[static_cast<size_t>(which)];
    if (kept.listed) return kept.listing;
    const std::string_view folder = port_folder_name(which);
    const std::string path = known.dir + "/" + std::string(folder);
    auto names = listing(path, port.device, port.to_string() + " " + std::string(folder), optional);
    // A folder that must be there and cannot be listed is tried (and reported) again.
    if (!names && !optional) return unlisted_;
    std::optional<Listing> listed;
    if (names && numbered) {
        std::vector<std::string> ordered;
        for (uint32_t i : numbered_entries(*names)) ordered.push_back(std::to_string(i));
        *names = std::move(ordered);
    } else if (names) {
        std::sort(names->begin(), names->end());
    }
    if (names) {
        listed.emplace();
        listed->slots.resize(names->size());
        listed->names = std::move(*names);
    }
    kept.listed = true;
    kept.listing = std::move(listed);
    return kept.listing;
}

}  // namespace rdmadiag::sysfs
