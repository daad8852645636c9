#include "collector/sources/sysfs/sysfs_source.hpp"

#include <algorithm>
#include <cerrno>

#include "collector/model/counter.hpp"
#include "collector/sources/sysfs/legacy_counters.hpp"
#include "collector/sources/sysfs/sysfs_parsers.hpp"
#include "collector/sources/sysfs/twin_counter.hpp"

namespace rdmadiag::sysfs {

namespace {

constexpr std::string_view kNoDevices = "no RDMA devices under ";

// hw_counters/lifespan is how long the driver caches the values (ms), not a counter.
constexpr std::string_view kHwLifespan = "lifespan";

constexpr uint32_t kMaxPKeyIndex = 0xffff;

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

Transport transport_of(const std::optional<std::string>& node_type, std::optional<LinkLayer> link) {
    if (node_type == "RNIC") return Transport::iwarp;
    if (!link) return Transport::unknown;
    if (*link == LinkLayer::infiniband) return Transport::ib;
    if (*link == LinkLayer::ethernet) return Transport::roce;
    return Transport::unknown;
}

}  // namespace

// A folder whose value files are read one after another. The path is rebuilt in one buffer, and
// the error subject ("mlx5_0:1 counters/symbol_error") is only built when there is an error.
class Folder {
public:
    // `owner_dir`: the folder of the device, or of its port `port` (0: the device's own files);
    // `folder`: the folder's name below it ("" for that folder itself). Every view must outlive
    // the Folder.
    Folder(std::string_view owner_dir, std::string_view folder, std::string_view device,
           uint32_t port = 0)
        : device_(device), port_(port), folder_(folder) {
        path_.reserve(owner_dir.size() + folder.size() + 32);
        path_ += owner_dir;
        if (!folder.empty()) {
            path_ += '/';
            path_ += folder;
        }
        dir_size_ = path_.size();
        path_ += '/';
        base_ = path_.size();
    }
    const std::string& path(std::string_view name) {
        path_.resize(base_);
        path_ += name;
        return path_;
    }
    std::string subject(std::string_view name) const {
        std::string out(device_);
        if (port_ != 0) (out += ':') += std::to_string(port_);
        out += ' ';
        if (!folder_.empty()) (out += folder_) += '/';
        return out += name;
    }
    std::string dir() const { return path_.substr(0, dir_size_); }
    std::string_view device() const { return device_; }
    std::string_view folder() const { return folder_; }

private:
    std::string path_;
    size_t dir_size_ = 0;
    size_t base_ = 0;
    std::string_view device_;
    uint32_t port_;
    std::string_view folder_;
};

// One walk over the tree: the reads, the parsing and the observations of a single poll or
// refresh. Every failed value becomes a SampleError and nothing else.
class SysfsSource::Pass {
public:
    Pass(SysfsSource& src, TimePoint now, sources::ObservationSink& sink)
        : src_(src), now_(now), sink_(sink) {}

    void emit(ObservationBody body) {
        sink_.emit(Observation{now_, std::string(kSysfsSourceName), std::move(body)});
    }

    void error(std::string subject, const Error& e) {
        // A file the kernel always makes that is not in the tree (a partial copy of sysfs) stays
        // missing: it is said once while its device stays, not on every pass that looks for it.
        if (e.code == ENOENT && !src_.missing_.insert(subject).second) return;
        emit(SampleError{std::move(subject), e.message, e.code});
    }

    // Reads one value file and parses it. Absent files are errors unless `optional`.
    // `held`: a file read again on a schedule, which the reader may keep open (noted there).
    template <class Parse>
    auto value(Folder& folder, std::string_view name, Parse parse, bool optional = false,
               HeldSlot* held = nullptr)
        -> std::optional<std::decay_t<decltype(parse(std::string_view{}).value())>> {
        char buf[sysfs::kReadBufferSize];
        const std::string& path = folder.path(name);
        auto n = held ? src_.reader_->read_held(path, buf, sizeof buf, *held)
                      : src_.reader_->read_file(path, buf, sizeof buf);
        if (!n) {
            if (!(optional && n.error().code == ENOENT) &&
                !src_.device_vanished(folder.device(), n.error().code)) {
                error(folder.subject(name), n.error());
            }
            return std::nullopt;
        }
        auto parsed = parse(std::string_view(buf, *n));
        if (!parsed) {
            error(folder.subject(name), parsed.error());
            return std::nullopt;
        }
        return std::move(parsed).value();
    }

    // Lists a directory; a missing one is reported unless `optional`.
    // Lists a directory of `device`; a missing one is reported unless `optional`.
    std::optional<std::vector<std::string>> listing(const std::string& path,
                                                    const std::string& device,
                                                    const std::string& subject, bool optional) {
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

    // Listed on the tables cadence and kept between: a device's ports do not come and go while
    // it stays registered, and a device that goes away leaves the device list first.
    const std::vector<uint32_t>* ports_of(const std::string& dev) {
        if (auto it = src_.ports_.find(dev); it != src_.ports_.end()) return &it->second;
        auto names = listing(device_dir(dev) + "/ports", dev, dev + " ports", false);
        if (!names) return nullptr;
        return &(src_.ports_[dev] = numbered_entries(*names));
    }

    void device_info(const std::string& dev, std::optional<uint32_t> first_port) {
        const std::string dev_dir = device_dir(dev);
        Folder dir(dev_dir, "", dev);
        DeviceInfo info;
        info.device = dev;
        if (auto t = value(dir, "node_type", sysfs::parse_node_type)) {
            info.node_type = t->name;
            if (has_ib_management(*t)) {
                src_.without_pma_.erase(dev);
            } else {
                src_.without_pma_.insert(dev);
            }
        }
        info.node_guid = value(dir, "node_guid", sysfs::parse_guid);
        info.sys_image_guid = value(dir, "sys_image_guid", sysfs::parse_guid);
        info.node_desc = value(dir, "node_desc", sysfs::parse_node_desc);
        // fw_ver, board_id and hca_type come from the driver: soft devices lack some of them,
        // and fw_ver prints an empty line when the driver has no firmware to name.
        info.fw_ver = value(dir, "fw_ver", parse_firmware, true).value_or(std::nullopt);
        info.board_id = value(dir, "board_id", sysfs::parse_text_attribute, true);
        info.hca_type = value(dir, "hca_type", sysfs::parse_text_attribute, true);
        // The transport needs the link layer; a failure to read it is reported with the port.
        std::optional<LinkLayer> link;
        if (first_port) {
            char buf[sysfs::kReadBufferSize];
            auto n = src_.reader_->read_file(
                dev_dir + "/ports/" + std::to_string(*first_port) + "/link_layer", buf, sizeof buf);
            if (n) {
                auto l = sysfs::parse_link_layer(std::string_view(buf, *n));
                if (l) link = *l;
            }
        }
        info.transport = transport_of(info.node_type, link);
        emit(std::move(info));
    }

    // CAs, switches and routers have InfiniBand management, so a PMA; iWARP RNICs and usNICs
    // never do. Unknown types are taken to have one, so their failures stay errors.
    static bool has_ib_management(const sysfs::NodeType& t) { return t.code <= 3; }

    static Result<std::optional<std::string>> parse_firmware(std::string_view text) {
        if (text.empty() || text == "\n") return std::optional<std::string>{};
        auto v = RDMADIAG_TRY(sysfs::parse_text_attribute(text));
        return std::optional<std::string>(std::move(v));
    }

    // How much of a table a tables pass reads: its entries up to the last one `in_use`, and
    // kTableGuard more (where a subnet manager or the kernel puts the next entry).
    template <class T, class InUse>
    static size_t table_head(const std::vector<T>& entries, InUse in_use) {
        size_t used = entries.size();
        while (used > 0 && !in_use(entries[used - 1])) --used;
        return std::min(entries.size(), used + kTableGuard);
    }

    // Whether the first `head` entries of a table, read from `dir` (entry `pos` is the file
    // name_of(pos), held where slots[pos] notes), are still `carried`'s. Any difference, and any
    // entry that cannot be read, says no: the whole table is read then, and reports it.
    template <class T, class NameOf, class Parse>
    bool head_reads_as(Folder& dir, const std::vector<T>& carried, size_t head,
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
    void read_gids(const PortRef& port, KnownPort& known, bool whole) {
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
            const size_t head =
                table_head(carried, [](const sysfs::Gid& g) { return !g.is_zero(); });
            auto name_of = [&](size_t pos) -> const std::string& { return names[pos]; };
            if (head_reads_as(dir, carried, head, listed->slots, name_of, sysfs::parse_gid)) {
                return;
            }
        }
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
        known.gids = std::move(out);
    }

    // The attributes port_state reads only when the state changed, from one sample to another.
    static void carry_attributes(const PortStateSample& from, PortStateSample& to) {
        to.lid = from.lid;
        to.sm_lid = from.sm_lid;
        to.lmc = from.lmc;
        to.link_layer = from.link_layer;
        to.rate = from.rate;
        to.cap_mask = from.cap_mask;
    }

    // Reads the port's state; state_and_gids sends it once the GIDs are read (a change of state
    // has them read whole). The caller decides when the state is read (SysfsSource::sample). The
    // physical state is read with it, except while the port stays Active: a logical state past
    // Down needs the physical link up, so it is carried then and read again with the other
    // attributes. Those (LIDs, rate, capabilities, link layer) change with the states, or with an
    // event that says so (LID_CHANGE, SM_CHANGE, CLIENT_REREGISTER: the engine then asks for a
    // refresh), so they are read again when either state changed, with the whole tables (`all`)
    // and on a refresh, and carried in between.
    PortStateSample port_state(const PortRef& port, KnownPort& known, bool all) {
        Folder dir(known.dir, "", port.device, port.port);
        PortStateSample s;
        s.port = port;
        HeldSlot* slot = known.slots.data();
        s.state = value(dir, "state", sysfs::parse_port_state, false, slot++);
        const PortStateSample* last = known.read ? &known.last : nullptr;
        const bool stays_active = last && !all && s.state == PortState::active &&
                                  last->state == s.state && last->phys_state;
        if (stays_active) {
            s.phys_state = last->phys_state;
            s.phys_state_text = last->phys_state_text;
        } else if (auto ps = value(dir, "phys_state", sysfs::parse_phys_state, false, slot)) {
            s.phys_state = ps->code;
            s.phys_state_text = std::move(ps->name);
        }
        ++slot;
        if (last && !all && last->state == s.state && last->phys_state == s.phys_state) {
            carry_attributes(*last, s);
        } else {
            // A port coming up is given its P_Keys (and, on InfiniBand, its subnet prefix) by the
            // SM: read its tables whole.
            if (last && last->state != s.state) {
                if (known.table) known.table->suspect = true;
                if (known.gids) known.gids->suspect = true;
                // A link that went down or came up counts link_downed, symbol errors, ...
                known.narrow_fast_until = now_ + src_.narrow_fast_hold();
            }
            s.lid = value(dir, "lid", sysfs::parse_lid, false, slot++);
            s.sm_lid = value(dir, "sm_lid", sysfs::parse_lid, false, slot++);
            s.lmc = value(dir, "lid_mask_count", sysfs::parse_lid_mask_count, false, slot++);
            s.link_layer = value(dir, "link_layer", sysfs::parse_link_layer, false, slot++);
            // The text is kept as the kernel printed it; parsing checks that it is a rate.
            s.rate = value(
                dir, "rate",
                [](std::string_view t) -> Result<std::string> {
                    RDMADIAG_TRY(sysfs::parse_rate(t));
                    return std::string(*sysfs::value_line(t));
                },
                false, slot++);
            s.cap_mask = value(dir, "cap_mask", sysfs::parse_cap_mask, false, slot++);
            known.read = true;
            PortStateSample& a = known.last;
            a.state = s.state;
            a.phys_state = s.phys_state;
            a.phys_state_text = s.phys_state_text;
            carry_attributes(s, a);
        }
        return s;
    }

    // The port's state (when `read_state`) and its GIDs (when `read_table`, or never read), in
    // that order: a change of state has the GID table read whole. The state is sent with the
    // GIDs; what the counter methods need to know of the port comes back, carried from the last
    // reading when the state was not read.
    sources::PortFacts state_and_gids(const PortRef& port, KnownPort& known, bool read_state,
                                      bool read_table, bool whole) {
        std::optional<PortStateSample> s;
        if (read_state) s = port_state(port, known, whole);
        if (read_table || !known.gids) read_gids(port, known, whole);
        const PortStateSample& last = s ? *s : known.last;
        sources::PortFacts facts{last.state, last.link_layer, last.lid};
        if (s) {
            if (known.gids) {
                s->gids = known.gids->gids;
                // GID 0's interface ID is the port GUID on InfiniBand only; RoCE derives it from
                // the MAC address.
                if (s->link_layer == LinkLayer::infiniband) s->port_guid = known.gids->port_guid;
            }
            emit(std::move(*s));
        }
        if (known.gids && known.gids->unsent) {
            // The cache view goes out, after the state it belongs to, when the table was read
            // whole: a head that reads as it was adds nothing, and the whole tables confirm it
            // every few minutes.
            known.gids->unsent = false;
            emit(GidTableSample{port, GidView::cache, known.gids->view});
        }
        return facts;
    }

    // The port's P_Key table: its head where the table carried from the last whole read still
    // stands for the rest (SysfsSource's comment says when), the whole table otherwise.
    void pkey_table(const PortRef& port, KnownPort& known, bool whole) {
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

    void whole_pkey_table(const PortRef& port, KnownPort& known) {
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

    // P_Key violations on the port (constraint errors in, out): a rise makes its table suspect.
    static void note_violations(KnownPort& known, std::string_view name, uint64_t value) {
        const bool in = name == "port_rcv_constraint_errors";
        if (!in && name != "port_xmit_constraint_errors") return;
        if (!known.table) return;
        uint64_t& seen = known.table->violations[in ? 0 : 1];
        if (value > seen) known.table->suspect = true;
        seen = value;
    }

    // A port's counters whose tier is due: counters/ (the PMA), counters_ext/ (mlx4's 64-bit
    // forms of some of them) and hw_counters/ (the driver's). The tiers decide which counters are
    // read; each folder's counter method, where one answers for the port, how
    // (counter_methods.hpp), the files otherwise. A quantity in both counters/ and counters_ext/
    // is read from both and reported once (twin_counter.hpp).
    void port_counters(const PortRef& port, KnownPort& known, const sources::PortFacts& facts,
                       sources::CounterTiers due) {
        CounterMethods& methods = src_.methods_;
        if (due.reads(CounterKind::pma)) {
            known.unavailable.clear();
            auto& files = listed_files(port, known, PortFolder::counters);
            // counters_ext/ holds data and packet counters, all of the slow tier.
            std::optional<Listing>* legacy = nullptr;
            Twins twins;
            if (due.slow) {
                if (auto& ext = listed_files(port, known, PortFolder::counters_ext)) {
                    legacy = &ext;
                    for (const auto& file : ext->names) {
                        const std::string_view name = legacy_counter_name(file);
                        if (name != file && files &&
                            std::binary_search(files->names.begin(), files->names.end(), name)) {
                            twins.push_back({name, {}});
                        }
                    }
                }
            }
            const MethodValues* by_method = nullptr;
            if (files) {
                // A device without a PMA by its node type (iWARP) is not asked over MADs; its
                // counters/ files, where a kernel made them, say "N/A (no PMA)".
                if (!src_.without_pma_.contains(port.device)) {
                    by_method = methods.read(CounterKind::pma, port, facts);
                }
                counters(port, known, "counters", *files, CounterKind::pma, due, by_method, &twins,
                         0);
            }
            // Where the PMA answered with PortCountersExtended its 64-bit values stand for these
            // files too; its 32-bit PortCounters fields never do.
            if (legacy) {
                counters(port, known, kLegacyCountersFolder, **legacy, CounterKind::pma, due,
                         by_method, &twins, 1);
            }
            for (const auto& [name, read] : twins) {
                auto [it, added] = known.twins.try_emplace(std::string(name));
                auto v = it->second.update(read[0], read[1]);
                if (!v) continue;
                CounterSample c;
                c.port = port;
                c.name = std::string(name);
                c.value = *v;
                c.width = kLegacyCounterWidth;
                c.kind = CounterKind::pma;
                emit(std::move(c));
            }
        }
        if (due.reads(CounterKind::hw)) {
            if (auto& files = listed_files(port, known, PortFolder::hw_counters)) {
                counters(port, known, "hw_counters", *files, CounterKind::hw, due,
                         methods.read(CounterKind::hw, port, facts));
            }
        }
    }

    // The sorted file names of one of the port's folders. A port without a counter folder has
    // none of those counters, and that is no error (`optional`): no PMA (rxe, iWARP) means no
    // counters/, a driver without statistics no hw_counters/, and only mlx4 has counters_ext/.
    // Listed with the whole tables and kept between, as the ports are.
    // With `numbered`, only names that are table indexes, in index order ("10" after "2").
    std::optional<Listing>& listed_files(const PortRef& port, KnownPort& known, PortFolder which,
                                         bool optional = true, bool numbered = false) {
        FolderListing& kept = known.listings[static_cast<size_t>(which)];
        if (kept.listed) return kept.listing;
        const std::string_view folder = folder_name(which);
        const std::string path = known.dir + "/" + std::string(folder);
        auto names =
            listing(path, port.device, port.to_string() + " " + std::string(folder), optional);
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

    static std::string_view folder_name(PortFolder which) {
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

    // A counter file's value. Without one it is either not available (the kernel says so: noted
    // on the port, no error) or unreadable (reported).
    std::optional<uint64_t> counter_file(Folder& dir, const std::string& file, CounterKind kind,
                                         KnownPort& watch, HeldSlot& slot) {
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

    // The first folder of the port found without values on this pass, and why.
    static void note_unavailable(KnownPort& watch, const Folder& dir, std::string_view why) {
        if (!watch.unavailable.empty()) return;
        watch.unavailable = dir.folder();
        watch.unavailable += "/: ";
        watch.unavailable += why;
    }

    // Emits the counters of `folder` whose tier is due: the value a counter method gave
    // (`method_values`) where there is one, the file's otherwise. A counter named in `twins` is
    // not emitted but kept there, at `twin_slot` (port_counters reports the pair).
    void counters(const PortRef& port, KnownPort& watch, std::string_view folder, Listing& files,
                  CounterKind kind, sources::CounterTiers due, const MethodValues* method_values,
                  Twins* twins = nullptr, size_t twin_slot = 0) {
        Folder dir(watch.dir, folder, port.device, port.port);
        const bool legacy = folder == kLegacyCountersFolder;
        if (files.fast.size() != files.names.size()) {
            files.reported.assign(files.names.size(), std::nullopt);
            files.fast.clear();
            for (const auto& file : files.names) {
                files.fast.push_back(
                    sources::fast_reason(kind, legacy ? legacy_counter_name(file) : file));
            }
        }
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
                if (!(reason == sources::FastReason::narrow && due.slow && !method_values))
                    continue;
            }
            std::optional<uint64_t>* twin = nullptr;
            if (twins) {
                for (auto& [twin_name, read] : *twins) {
                    if (twin_name == name) twin = &read[twin_slot];
                }
            }
            const sources::CounterValue* by_method =
                method_values ? method_values->find(name) : nullptr;
            // A counters_ext/ file is a 64-bit counter: a narrower reading of the same quantity
            // (PortCounters' 32-bit field, from a PMA without the extended width) is not it.
            if (by_method && legacy && by_method->width != kLegacyCounterWidth) {
                by_method = nullptr;
            }
            const bool narrow = !by_method && reason == sources::FastReason::narrow;
            if (narrow && !due.slow && !narrow_fast) continue;
            // A counter's file is read again on every pass of its tier: the reader may keep it
            // open.
            const std::optional<uint64_t> read =
                by_method ? std::optional<uint64_t>(by_method->value)
                          : counter_file(dir, file, kind, watch, files.slots[k]);
            if (twin) {
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
            CounterSample c;
            c.port = port;
            c.name = std::string(name);
            c.value = v;
            c.width = legacy ? kLegacyCounterWidth : counter_width(kind, name);
            c.kind = kind;
            emit(std::move(c));
        }
        if (narrow_by_file) {
            if (watch.narrow_read && narrow_sum != watch.narrow_sum) {
                watch.narrow_fast_until = now_ + src_.narrow_fast_hold();
            }
            watch.narrow_sum = narrow_sum;
            watch.narrow_read = true;
        }
    }

    std::string device_dir(const std::string& dev) const { return src_.class_dir_ + "/" + dev; }

private:
    SysfsSource& src_;
    TimePoint now_;
    sources::ObservationSink& sink_;
    std::optional<Listing> unlisted_;  // stays empty
};

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

SysfsSource::KnownPort& SysfsSource::known_port(const PortRef& port) {
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

Duration SysfsSource::slow_counter_interval() const {
    return std::max(settings_.counter_interval, settings_.slow_counter_interval);
}

Duration SysfsSource::poll_interval() const {
    return std::min({settings_.counter_interval, slow_counter_interval(), settings_.pkey_interval});
}

void SysfsSource::poll(TimePoint now, sources::ObservationSink& sink) {
    // A cadence is due when its time has come; the next one is counted from the slot it was due
    // in, so a late poll does not shift every later one.
    auto due = [now](std::optional<TimePoint>& next, Duration interval) {
        if (next && now < *next) return false;
        if (!next || now - *next >= interval) {
            next = now + interval;
        } else {
            *next += interval;
        }
        return true;
    };
    Parts parts;
    parts.counters.fast = due(next_counters_, settings_.counter_interval);
    parts.counters.slow = due(next_slow_counters_, slow_counter_interval());
    parts.tables = due(next_tables_, settings_.pkey_interval);
    parts.whole_tables = parts.tables && due(next_whole_tables_, full_table_interval_);
    if (parts.counters.any() || parts.tables) sample(now, sink, parts);
}

void SysfsSource::sample_all(TimePoint now, sources::ObservationSink& sink) {
    sample(now, sink, Parts{sources::CounterTiers::all(), true, true});
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

void SysfsSource::sample(TimePoint now, sources::ObservationSink& sink, Parts parts) {
    Pass pass(*this, now, sink);
    // The device list is taken with the tables, not on every pass: nearly every listing finds
    // the devices of the last one. A device that goes away between listings fails its next read
    // (ENODEV from a held file, ENOENT from a path): the pass leaves it there, says nothing of
    // it, and lists the devices again at its end (device_vanished). A new one is seen by the
    // next tables pass.
    if ((parts.tables || !listed_) && !take_device_list(pass, parts.whole_tables)) return;
    // The listings of ports and counter folders, and the devices' identity, are taken afresh
    // with the whole tables: they change only when a device registers again, which the device
    // list shows (and then everything about the device is read afresh).
    if (parts.whole_tables) forget_listings();

    methods_.begin_pass(parts.tables, parts.counters);
    // Only take_device_list changes the list, and not before the loop is done.
    for (const auto& dev : last_devices_) {
        if (vanished_.contains(dev)) continue;
        auto ports = pass.ports_of(dev);
        const bool new_device = !described_.contains(dev);
        if (parts.whole_tables || new_device) {
            std::optional<uint32_t> first;
            if (ports && !ports->empty()) first = ports->front();
            pass.device_info(dev, first);
            described_.insert(dev);
        }
        if (!ports) continue;
        for (uint32_t p : *ports) {
            if (vanished_.contains(dev)) break;
            PortRef port{dev, p};
            KnownPort& known = known_port(port);
            // An Active port's state is read with the slow tier and the tables, and at once after
            // a port event (refresh): a port going down raises PORT_ERR where an event source
            // watches it. A port in any other state is read on every pass: it is coming up.
            const bool read_state = parts.tables || parts.counters.slow || !known.read ||
                                    known.last.state != PortState::active;
            const auto facts =
                pass.state_and_gids(port, known, read_state, parts.tables, parts.whole_tables);
            if (parts.tables) pass.pkey_table(port, known, parts.whole_tables);
            if (parts.counters.any()) pass.port_counters(port, known, facts, parts.counters);
        }
    }
    methods_.end_pass();
    // A device went away during the pass: the engine hears of it now.
    if (!vanished_.empty() && !take_device_list(pass, false)) return;
    if (parts.counters.any()) {
        narrow_fast_ports_ = static_cast<size_t>(
            std::count_if(known_ports_.begin(), known_ports_.end(), [&](const auto& kv) {
                const auto& until = kv.second.narrow_fast_until;
                return until && now < *until;
            }));
    }
    // Last, so that it says how this pass read the counters, and where they are not available.
    if (parts.counters.any()) unavailable_ = unavailable_summary();
    std::string reason = methods_.status();
    if (!unavailable_.empty()) reason += (reason.empty() ? "" : "; ") + unavailable_;
    pass.emit(SourceStatus{true, std::move(reason)});
}

void SysfsSource::refresh(const PortRef& port, TimePoint now, sources::ObservationSink& sink) {
    Pass pass(*this, now, sink);
    auto devices = list_devices();
    const bool known = devices && std::binary_search(devices->begin(), devices->end(), port.device);
    if (!known) {
        pass.emit(SampleError{
            port.to_string(),
            "cannot refresh: no selected RDMA device '" + port.device + "' under " + class_dir_,
            ENODEV});
        return;
    }
    // An event may mean the device's layout changed: list it again.
    forget_listings_of(port.device);
    auto ports = pass.ports_of(port.device);
    if (!ports) return;
    bool found = false;
    for (uint32_t p : *ports) {
        if (port.port != 0 && p != port.port) continue;
        found = true;
        PortRef one{port.device, p};
        KnownPort& record = known_port(one);
        pass.state_and_gids(one, record, true, true, true);
        pass.pkey_table(one, record, true);
    }
    if (!found) {
        pass.emit(SampleError{port.to_string(), "cannot refresh: no such port", ENOENT});
    }
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
