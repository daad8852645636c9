// The P_Key and GID tables: each table's head on the tables cadence, where the table carried
// from the last whole read still stands for the rest, and the whole table otherwise (when the
// head changed, after a state change or rising P_Key violations, on refresh, and with the whole
// tables: SysfsSource's comment).

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "collector/sources/sysfs/sysfs_pass.hpp"

namespace rdmadiag::sysfs {

namespace {

constexpr uint32_t kMaxPKeyIndex = 0xffff;

// How much of a table a tables pass reads: its entries up to the last one `in_use`, and
// kTableGuard more (where a subnet manager or the kernel puts the next entry).
template <class T, class InUse>
size_t table_head(const std::vector<T>& entries, InUse in_use) {
    size_t used = entries.size();
    while (used > 0 && !in_use(entries[used - 1])) --used;
    return std::min(entries.size(), used + kTableGuard);
}

}  // namespace

// Whether the first `head` entries of a table, read from `dir` (entry `pos` is the file
// name_of(pos), held where slots[pos] notes), are still `carried`'s. Any difference, and any
// entry that cannot be read, says no: the whole table is read then, and reports it.
template <class T, class NameOf, class Parse>
bool SysfsSource::Pass::head_reads_as(Folder& dir, const std::vector<T>& carried, size_t head,
                                      std::vector<HeldSlot>& slots, NameOf name_of, Parse parse) {
    if (slots.size() < head) slots.resize(head);
    char buf[sysfs::kReadBufferSize];
    for (size_t pos = 0; pos < head; ++pos) {
        auto n = src_.reader_->read_held(dir.path(name_of(pos)), buf, sizeof buf, slots[pos]);
        if (!n) return false;
        auto entry = parse(std::string_view(buf, *n));
        if (!entry || !(*entry == carried[pos])) return false;
    }
    return true;
}

// The port's GIDs, in index order. Like a P_Key table (pkey_table), the head is read on the
// tables cadence and the whole table when it differs, with the whole tables, after a state
// change and on refresh: a RoCE port's table has 255 entries, filled from the first free one.
void SysfsSource::Pass::read_gids(const PortRef& port, KnownPort& known, bool whole) {
    auto& listed = listed_files(port, known, PortFolder::gids, false, true);
    if (!listed) {
        // No GID table to show: no cache view either (an empty one would read as a cache
        // that lost every GID).
        known.gids = PortGids{};
        known.gids->unsent = false;
        return;
    }
    const std::vector<std::string>& names = listed->names;
    Folder dir(known.dir, "gids", port.device, port.port);
    if (!whole && known.gids && known.gids->complete && !known.gids->suspect &&
        known.gids->table.size() == names.size()) {
        const auto& carried = known.gids->table;
        const size_t head = table_head(carried, [](const sysfs::Gid& g) { return !g.is_zero(); });
        auto name_of = [&](size_t pos) -> const std::string& { return names[pos]; };
        if (head_reads_as(dir, carried, head, listed->slots, name_of, sysfs::parse_gid)) {
            return;
        }
    }
    known.gids = whole_gid_table(port, known, names);
}

PortGids SysfsSource::Pass::whole_gid_table(const PortRef& port, const KnownPort& known,
                                            const std::vector<std::string>& names) {
    Folder dir(known.dir, "gids", port.device, port.port);
    PortGids out;
    out.table.resize(names.size());
    out.complete = true;
    // A RoCE GID's type and netdev are read beside it; an InfiniBand port has no netdev
    // and its type is IB.
    const bool roce = known.last.link_layer == LinkLayer::ethernet;
    std::optional<Folder> types;
    std::optional<Folder> ndevs;
    if (roce) {
        types.emplace(known.dir, "gid_attrs/types", port.device, port.port);
        ndevs.emplace(known.dir, "gid_attrs/ndevs", port.device, port.port);
    }
    for (size_t pos = 0; pos < names.size(); ++pos) {
        const auto index = static_cast<uint16_t>(std::stoul(names[pos]));
        // Not held: a whole table (1,024 entries on rxe) is read only now and then; the
        // entries of its head are held when the head is read.
        auto gid = value(dir, names[pos], sysfs::parse_gid);
        if (!gid) {
            out.complete = false;
            out.view.unreadable.push_back(index);
            continue;
        }
        out.table[pos] = *gid;
        if (gid->is_zero()) continue;
        if (names[pos] == "0") out.port_guid = gid->interface_id();
        out.gids.push_back(gid->to_string());
        GidEntry entry{index, *gid, GidType::ib, {}};
        if (roce) {
            auto type = value(*types, names[pos], sysfs::parse_gid_attr_type);
            auto ndev = value(*ndevs, names[pos], sysfs::parse_gid_attr_ndev);
            if (!type || !ndev) {
                out.view.unreadable.push_back(index);
                continue;
            }
            entry.type = *type;
            entry.ndev = std::move(*ndev);
        }
        out.view.entries.push_back(std::move(entry));
    }
    return out;
}

void SysfsSource::Pass::pkey_table(const PortRef& port, KnownPort& known, bool whole) {
    if (!whole && known.table && !known.table->suspect) {
        CarriedTable& carried = *known.table;
        const std::vector<uint16_t>& keys = carried.table.keys;
        Folder dir(known.dir, "pkeys", port.device, port.port);
        const size_t head = table_head(keys, [](uint16_t k) { return !pkey_is_empty(k); });
        auto name_of = [](size_t pos) { return std::to_string(pos); };
        if (head_reads_as(dir, keys, head, carried.slots, name_of, sysfs::parse_pkey_entry)) {
            PKeyTableSample s;
            s.port = port;
            s.view = PKeyView::device;
            s.table = carried.table;
            emit(std::move(s));
            return;
        }
    }
    whole_pkey_table(port, known);
}

void SysfsSource::Pass::whole_pkey_table(const PortRef& port, KnownPort& known) {
    Folder dir(known.dir, "pkeys", port.device, port.port);
    // The kernel makes pkeys/ only for a port that has a P_Key table (pkey_tbl_len > 0):
    // iWARP ports have none. Its absence is the port's nature, not a failed read.
    auto names = listing(dir.dir(), port.device, port.to_string() + " pkeys", true);
    if (!names) return;
    auto indexes = numbered_entries(*names);
    // P_Key indexes are 16 bits wide; an entry beyond that is not part of any table.
    while (!indexes.empty() && indexes.back() > kMaxPKeyIndex) {
        error(dir.subject(std::to_string(indexes.back())),
              make_error("P_Key index beyond 65535", ERANGE));
        indexes.pop_back();
    }
    PKeyTableSample s;
    s.port = port;
    s.view = PKeyView::device;
    const size_t size = indexes.empty() ? 0 : indexes.back() + 1;
    s.table.keys.assign(size, 0);
    size_t next = 0;
    for (uint32_t i : indexes) {
        // An index the directory does not list cannot be read: say so rather than call it
        // an empty slot.
        for (; next < i; ++next) s.table.unreadable.push_back(static_cast<uint16_t>(next));
        next = i + 1;
        if (auto key = value(dir, std::to_string(i), sysfs::parse_pkey_entry)) {
            s.table.keys[i] = *key;
        } else {
            s.table.unreadable.push_back(static_cast<uint16_t>(i));
        }
    }
    // Only a table read without a fault is carried: one with unreadable entries is read whole
    // on every tables pass, as its faults are reported on every pass.
    if (s.table.complete()) {
        if (!known.table) known.table = CarriedTable{};
        CarriedTable& c = *known.table;
        c.table = s.table;
        c.suspect = false;
    } else {
        known.table.reset();
    }
    emit(std::move(s));
}

}  // namespace rdmadiag::sysfs
