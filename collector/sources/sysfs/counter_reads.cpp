// A port's counters on a pass: which the due tiers read, from a counter method or the files, and
// which are reported.

#include <algorithm>
#include <optional>
#include <string>

#include "collector/model/counter.hpp"
#include "collector/sources/sysfs/legacy_counters.hpp"
#include "collector/sources/sysfs/sysfs_pass.hpp"

namespace rdmadiag::sysfs {

namespace {

// hw_counters/lifespan is how long the driver caches the values (ms), not a counter.
constexpr std::string_view kHwLifespan = "lifespan";

// P_Key violations on the port (constraint errors in, out): a rise makes its table suspect.
void note_violations(KnownPort& known, std::string_view name, uint64_t value) {
    const bool in = name == "port_rcv_constraint_errors";
    if (!in && name != "port_xmit_constraint_errors") return;
    if (!known.table) return;
    uint64_t& seen = known.table->violations[in ? 0 : 1];
    if (value > seen) known.table->suspect = true;
    seen = value;
}

// The first folder of the port found without values on this pass, and why.
void note_unavailable(KnownPort& watch, const Folder& dir, std::string_view why) {
    if (!watch.unavailable.empty()) return;
    watch.unavailable = dir.folder();
    watch.unavailable += "/: ";
    watch.unavailable += why;
}

// Each counter's tier, once per listing: the folder's names are kept until it is listed again.
void sort_into_tiers(Listing& files, CounterKind kind, bool legacy) {
    files.reported.assign(files.names.size(), std::nullopt);
    files.fast.clear();
    for (const auto& file : files.names) {
        files.fast.push_back(sources::fast_reason(kind, legacy ? legacy_counter_name(file) : file));
    }
}

// The quantities of counters_ext/ (`ext`) that counters/ (`files`) holds too, by standard name.
CounterTwins twin_counters(const std::optional<Listing>& files, const Listing& ext) {
    CounterTwins twins;
    for (const auto& file : ext.names) {
        const std::string_view name = legacy_counter_name(file);
        if (name != file && files &&
            std::binary_search(files->names.begin(), files->names.end(), name)) {
            twins.push_back({name, {}});
        }
    }
    return twins;
}

// Where `name`'s reading goes when it is one of a twin pair: its slot in the pair.
std::optional<uint64_t>* twin_slot_of(const CounterFolder& folder, std::string_view name) {
    std::optional<uint64_t>* twin = nullptr;
    if (folder.twins) {
        for (auto& [twin_name, read] : *folder.twins) {
            if (twin_name == name) twin = &read[folder.twin_slot];
        }
    }
    return twin;
}

// The value a counter method gave for `name`, where it stands for the folder's file.
const sources::CounterValue* method_value(const CounterFolder& folder, std::string_view name,
                                          bool legacy) {
    const sources::CounterValue* by_method =
        folder.method_values ? folder.method_values->find(name) : nullptr;
    // A counters_ext/ file is a 64-bit counter: a narrower reading of the same quantity
    // (PortCounters' 32-bit field, from a PMA without the extended width) is not it.
    if (by_method && legacy && by_method->width != kLegacyCounterWidth) return nullptr;
    return by_method;
}

CounterSample counter_sample(const PortRef& port, std::string_view name, uint64_t value,
                             uint8_t width, CounterKind kind) {
    CounterSample c;
    c.port = port;
    c.name = std::string(name);
    c.value = value;
    c.width = width;
    c.kind = kind;
    return c;
}

}  // namespace

void SysfsSource::Pass::port_counters(const PortRef& port, KnownPort& known,
                                      const sources::PortFacts& facts, sources::CounterTiers due) {
    if (due.reads(CounterKind::pma)) pma_counters(port, known, facts, due);
    if (due.reads(CounterKind::hw)) {
        if (auto& files = listed_files(port, known, PortFolder::hw_counters)) {
            counters(port, known, due,
                     CounterFolder{"hw_counters", *files, CounterKind::hw,
                                   src_.methods_.read(CounterKind::hw, port, facts)});
        }
    }
}

void SysfsSource::Pass::pma_counters(const PortRef& port, KnownPort& known,
                                     const sources::PortFacts& facts, sources::CounterTiers due) {
    known.unavailable.clear();
    auto& files = listed_files(port, known, PortFolder::counters);
    // counters_ext/ holds data and packet counters, all of the slow tier.
    std::optional<Listing>* legacy = nullptr;
    CounterTwins twins;
    if (due.slow) {
        if (auto& ext = listed_files(port, known, PortFolder::counters_ext)) {
            legacy = &ext;
            twins = twin_counters(files, *ext);
        }
    }
    const MethodValues* by_method = nullptr;
    if (files) {
        // A device without a PMA by its node type (iWARP) is not asked over MADs; its
        // counters/ files, where a kernel made them, say "N/A (no PMA)".
        if (!src_.without_pma_.contains(port.device)) {
            by_method = src_.methods_.read(CounterKind::pma, port, facts);
        }
        counters(port, known, due,
                 CounterFolder{"counters", *files, CounterKind::pma, by_method, &twins, 0});
    }
    // Where the PMA answered with PortCountersExtended its 64-bit values stand for these
    // files too; its 32-bit PortCounters fields never do.
    if (legacy) {
        counters(
            port, known, due,
            CounterFolder{kLegacyCountersFolder, **legacy, CounterKind::pma, by_method, &twins, 1});
    }
    emit_twins(port, known, twins);
}

void SysfsSource::Pass::emit_twins(const PortRef& port, KnownPort& known,
                                   const CounterTwins& twins) {
    for (const auto& [name, read] : twins) {
        auto [it, added] = known.twins.try_emplace(std::string(name));
        auto v = it->second.update(read[0], read[1]);
        if (!v) continue;
        emit(counter_sample(port, name, *v, kLegacyCounterWidth, CounterKind::pma));
    }
}

void SysfsSource::Pass::counters(const PortRef& port, KnownPort& watch, sources::CounterTiers due,
                                 const CounterFolder& folder) {
    Folder dir(watch.dir, folder.name, port.device, port.port);
    Listing& files = folder.files;
    const CounterKind kind = folder.kind;
    const bool legacy = folder.name == kLegacyCountersFolder;
    if (files.fast.size() != files.names.size()) sort_into_tiers(files, kind, legacy);
    // Narrow counters are each a firmware query when read from their files: read on a fast
    // pass only while they move (KnownPort::narrow_fast_until), with the slow tier always.
    const bool narrow_fast = watch.narrow_fast_until && now_ < *watch.narrow_fast_until;
    uint64_t narrow_sum = 0;
    bool narrow_by_file = false;
    for (size_t k = 0; k < files.names.size(); ++k) {
        const std::string& file = files.names[k];
        if (kind == CounterKind::hw && file == kHwLifespan) continue;
        const std::string_view name = legacy ? legacy_counter_name(file) : file;
        const auto& reason = files.fast[k];
        if (!due.covers(reason ? sources::CounterTier::fast : sources::CounterTier::slow)) {
            // A narrow counter read from its file is read with the slow tier too.
            if (!(reason == sources::FastReason::narrow && due.slow && !folder.method_values))
                continue;
        }
        const sources::CounterValue* by_method = method_value(folder, name, legacy);
        const bool narrow = !by_method && reason == sources::FastReason::narrow;
        if (narrow && !due.slow && !narrow_fast) continue;
        // A counter's file is read again on every pass of its tier: the reader may keep it
        // open.
        const std::optional<uint64_t> read =
            by_method ? std::optional<uint64_t>(by_method->value)
                      : counter_file(dir, file, kind, watch, files.slots[k]);
        if (std::optional<uint64_t>* twin = twin_slot_of(folder, name)) {
            *twin = read;
            continue;
        }
        if (!read) continue;
        const uint64_t v = *read;
        if (narrow) {
            narrow_sum += v;
            narrow_by_file = true;
        }
        if (kind == CounterKind::pma) note_violations(watch, name, v);
        // A fast pass reports a counter only when it moved since it was last reported: the
        // same value again tells the engine nothing, and it costs as much as the read. Every
        // slow pass reports every counter it reads, so none is reported less often.
        if (!due.slow && files.reported[k] == v) continue;
        files.reported[k] = v;
        emit(counter_sample(port, name, v, legacy ? kLegacyCounterWidth : counter_width(kind, name),
                            kind));
    }
    if (narrow_by_file) {
        if (watch.narrow_read && narrow_sum != watch.narrow_sum) {
            watch.narrow_fast_until = now_ + src_.narrow_fast_hold();
        }
        watch.narrow_sum = narrow_sum;
        watch.narrow_read = true;
    }
}

// A counter file's value. Without one it is either not available (the kernel says so: noted
// on the port, no error) or unreadable (reported).
std::optional<uint64_t> SysfsSource::Pass::counter_file(Folder& dir, const std::string& file,
                                                        CounterKind kind, KnownPort& watch,
                                                        HeldSlot& slot) {
    char buf[sysfs::kReadBufferSize];
    auto n = src_.reader_->read_held(dir.path(file), buf, sizeof buf, slot);
    if (!n) {
        if (kind == CounterKind::pma && sysfs::is_unavailable_read(n.error().code)) {
            note_unavailable(watch, dir, n.error().message);
        } else if (!src_.device_vanished(dir.device(), n.error().code)) {
            error(dir.subject(file), n.error());
        }
        return std::nullopt;
    }
    auto reading = sysfs::parse_counter_reading(std::string_view(buf, *n));
    if (!reading) {
        error(dir.subject(file), reading.error());
        return std::nullopt;
    }
    if (!reading->value) note_unavailable(watch, dir, "N/A (no PMA)");
    return reading->value;
}

}  // namespace rdmadiag::sysfs
