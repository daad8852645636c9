// The rules judged one port at a time: gid.cache_stale (InfiniBand: the kernel's cache against
// the port's SMA), roce.gid_missing and roce.gid_stale (RoCE: the cache against the netdev's
// addresses) and gid.duplicate within one port's table.

#include "collector/engine/gid/gid_rules.hpp"
#include "collector/engine/gid/gid_views.hpp"

namespace rdmadiag::engine::gid {

namespace {

constexpr const char* kCacheStaleAdvice =
    "The kernel re-reads its GID cache only when a GID_CHANGE is delivered (and, on kernels with "
    "\"IB/cache: update gid cache on client reregister event\", on CLIENT_REREGISTER); some HCAs "
    "(ConnectX-4) raise no GID_CHANGE when the SM changes the subnet prefix. Until the cache "
    "follows, rdma_cm binds and resolves with the old GIDs (rdma_bind_addr fails) and IPoIB keeps "
    "the old prefix in its hardware address. Confirm: `smpquery portinfo <lid> <port>` (GidPrefix) "
    "against /sys/class/infiniband/<dev>/ports/<port>/gids/0. Repair: make the port report a "
    "change: restart the SM (opensm sets ClientReregister on its first sweep), reset the link "
    "(`ibportstate <lid> <port> reset`), or reload the HCA driver.";

constexpr const char* kMissingAdvice =
    "The kernel adds a RoCE GID for every address of the netdev and of its upper devices (VLANs, "
    "bonds) from its address notifiers, which allocate the update with GFP_ATOMIC and drop it "
    "when that fails (\"roce_gid_mgmt: Couldn't allocate work for addr_event\" in the kernel "
    "log), or the GID table is full. RDMA CM cannot bind or resolve that address. Confirm: "
    "`ip addr show <ndev>` against `rdma link` / `ibv_devinfo -v`. Repair: remove and add the "
    "address again, or take the netdev down and up, so the kernel rebuilds the table.";

constexpr const char* kStaleAdvice =
    "The kernel deletes a RoCE GID when its address leaves the netdev, from the same address "
    "notifiers that drop an update they cannot allocate (\"roce_gid_mgmt: Couldn't allocate work "
    "for addr_event\" in the kernel log); this one outlived its "
    "address, so peers that resolve it reach a host that no longer owns the address and new "
    "connections through it fail. Confirm: `ip addr show <ndev>` against `rdma link` / "
    "`ibv_devinfo -v`. Repair: take the netdev down and up so the kernel rebuilds the table from "
    "the addresses it has.";

constexpr const char* kDuplicateInPortAdvice =
    "One GID at two indexes of a port's table: lookups by GID (rdma_cm, ibv_query_gid_table users) "
    "may pick either index and its attributes. The kernel does not add a GID it already holds, "
    "so the table was changed behind its back (a driver or firmware fault). Confirm with "
    "`ibv_devinfo -v`. Repair: reload the driver.";

FindingSubject port_subject(const PortRef& p) {
    FindingSubject s;
    s.device = p.device;
    s.port = p.port;
    return s;
}

std::string when(const std::optional<TimePoint>& t) {
    return t ? format_time(*t) : std::string("never");
}

bool is_roce(const PortGidTrack& t, const Inventory& inventory, const PortRef& port) {
    if (t.view(GidView::netdev) != nullptr) return true;
    if (const auto* p = inventory.port_info(port); p != nullptr && p->link_layer) {
        return *p->link_layer == LinkLayer::ethernet;
    }
    if (const auto* c = t.view(GidView::cache)) {
        for (const auto& e : c->table.entries) {
            if (e.type == GidType::roce_v1 || e.type == GidType::roce_v2) return true;
        }
    }
    return false;
}

// A port rule raised or cleared by evaluate: its bit in PortGidTrack::active, id, severity and
// advice.
struct PortRule {
    uint8_t bit;
    const char* rule;
    Severity severity;
    const char* advice;
};
constexpr PortRule kCacheStaleRule{kCacheStaleBit, kRuleCacheStale, Severity::critical,
                                   kCacheStaleAdvice};
constexpr PortRule kRoceMissingRule{kGidMissingBit, kRuleRoceMissing, Severity::warning,
                                    kMissingAdvice};
constexpr PortRule kRoceStaleRule{kGidStaleBit, kRuleRoceStale, Severity::warning, kStaleAdvice};

// The findings of one port as evaluate judges it.
struct PortFindings {
    PortGidTrack& track;
    FindingSubject subject;
    FindingBook& book;
    TimePoint now;

    // Raised, with `evidence`, when the difference outlived its grace (`due`) and the rule has
    // evidence; cleared otherwise, when it was raised.
    void judge(const PortRule& r, std::string evidence, bool due) {
        if (due && !evidence.empty()) {
            Finding f;
            f.rule = r.rule;
            f.severity = r.severity;
            f.subject = subject;
            f.since = track.differs_since.value_or(now);
            f.evidence = std::move(evidence);
            f.advice = r.advice;
            book.raise(std::move(f));
            track.active |= r.bit;
        } else if (track.active & r.bit) {
            book.clear(r.rule, subject, now);
            track.active &= static_cast<uint8_t>(~r.bit);
        }
    }
};

// gid.duplicate: one GID at two indexes of the port's table, judged on a fresh `cache` (null
// otherwise). The subject names the later index, so that it stands apart from a port GUID held by
// two ports (judged across ports, on the port alone).
void judge_duplicates_in_port(const PortRef& port, const TrackedGidView* cache, size_t examples,
                              PortFindings& findings) {
    PortGidTrack& t = findings.track;
    std::vector<std::pair<GidEntry, GidEntry>> dups;
    if (cache) dups = duplicates_in_table(cache->table);
    std::optional<uint16_t> index;
    if (!dups.empty()) index = dups.front().second.index;
    if (t.duplicate_index && t.duplicate_index != index) {
        FindingSubject old = findings.subject;
        old.index = t.duplicate_index;
        findings.book.clear(kRuleDuplicate, old, findings.now);
        t.duplicate_index.reset();
    }
    if (!index) return;
    std::string e;
    for (size_t i = 0; i < dups.size() && i < examples; ++i) {
        if (!e.empty()) e += "; ";
        e += dups[i].first.gid.to_string() + " at indexes " + std::to_string(dups[i].first.index) +
             " and " + std::to_string(dups[i].second.index);
    }
    Finding f;
    f.rule = kRuleDuplicate;
    f.severity = Severity::warning;
    f.subject = findings.subject;
    f.subject.index = index;
    f.since = cache->changed;
    f.evidence = "the kernel's GID cache of " + port.to_string() + " holds " + e;
    f.advice = kDuplicateInPortAdvice;
    findings.book.raise(std::move(f));
    t.duplicate_index = index;
}

// Why the port's cache cannot be judged now: a view to compare is missing or too old.
std::string unjudged_note(const TrackedGidView* cache, const TrackedGidView* ref, bool roce,
                          bool cache_fresh) {
    if (!cache_fresh) {
        return cache ? "the GID cache was last read at " + format_time(cache->confirmed)
                     : "no cache view to compare; the sysfs source reads one";
    }
    if (roce) {
        return ref ? "the netdev's addresses were last read at " + format_time(ref->confirmed)
                   : "no netdev view to compare with; the netdev source reads one";
    }
    return ref ? "the port was last read over MADs at " + format_time(ref->confirmed)
               : "no sma view to compare with; the mad source reads one";
}

// gid.cache_stale (InfiniBand): what the cache holds that the port (sma) does not, and what the
// port's events say of it; empty when they agree. `watched`: a source watches the port's events.
std::string ib_cache_stale_evidence(const PortRef& port, const PortGidTrack& t,
                                    const TrackedGidView& cache, const TrackedGidView& ref,
                                    size_t examples, bool watched) {
    const auto mismatch = compare_ib(cache.table, ref.table);
    if (mismatch.empty()) return {};
    std::string list;
    for (size_t i = 0; i < mismatch.size() && i < examples; ++i) {
        const auto& m = mismatch[i];
        if (!list.empty()) list += "; ";
        list += "index " + std::to_string(m.index) + ": cache " +
                (m.cache ? m.cache->to_string() : std::string("none")) + ", port " +
                m.port.to_string();
    }
    if (mismatch.size() > examples) {
        list += "; and " + std::to_string(mismatch.size() - examples) + " more";
    }
    std::string evidence = "the kernel's GID cache (sysfs) differs from what the port holds (" +
                           std::string(to_string(GidView::sma)) + ", read " +
                           format_time(ref.confirmed) + "): " + list;
    const auto* p0 = ref.table.at(0);
    const auto* c0 = cache.table.at(0);
    if (p0 && c0 && p0->gid.prefix() != c0->gid.prefix()) {
        evidence += "; subnet prefix " + format_subnet_prefix(c0->gid.prefix()) +
                    " in the cache, " + format_subnet_prefix(p0->gid.prefix()) + " on the port";
    }
    if (!watched) {
        evidence += "; no source watches " + port.to_string() +
                    "'s async events, so whether GID_CHANGE arrived is not known";
    } else if (t.last_gid_change && *t.last_gid_change >= ref.changed) {
        evidence += "; a GID_CHANGE was delivered at " + format_time(*t.last_gid_change) +
                    " and the cache did not follow";
    } else {
        evidence += "; no GID_CHANGE delivered since the port's GIDs changed at " +
                    format_time(ref.changed);
    }
    evidence += "; last CLIENT_REREGISTER: " + when(t.last_client_reregister);
    return evidence;
}

// roce.gid_missing: the netdev's addresses without their GID in the cache.
std::string roce_missing_evidence(const PortRef& port, const RoceMismatch& m, size_t examples) {
    if (m.missing.empty()) return {};
    return "addresses of " + port.to_string() +
           "'s netdevs without their GID in the kernel's cache: " +
           list_entries(m.missing, examples);
}

// roce.gid_stale: GIDs in the cache whose address the netdev no longer has.
std::string roce_stale_evidence(const PortRef& port, const RoceMismatch& m, size_t examples) {
    if (m.stale.empty()) return {};
    return "GIDs in the kernel's cache of " + port.to_string() +
           " whose address the netdev no longer has: " + list_entries(m.stale, examples);
}

// The port's coherence as the comparison left it: a difference is stale once it outlived
// `grace`, pending until then. Whether the difference is due.
bool follow_grace(PortGidTrack& t, bool differs, bool comparable, TimePoint now, Duration grace) {
    bool due = false;
    if (differs) {
        if (!t.differs_since) t.differs_since = now;
        const TimePoint at = *t.differs_since + grace;
        due = now >= at;
        t.coherence = due ? GidCoherence::stale : GidCoherence::pending;
        t.note = due ? "differs since " + format_time(*t.differs_since)
                     : "differs since " + format_time(*t.differs_since) + ", within grace";
        if (!due) t.next_check = at;
    } else if (comparable) {
        t.coherence = GidCoherence::coherent;
        t.note.clear();
        t.differs_since.reset();
    }
    return due;
}

}  // namespace

void GidViews::evaluate(const PortRef& port, PortGidTrack& t, EngineContext& ctx) {
    const TimePoint now = ctx.now();
    const GidCoherence was = t.coherence;
    const std::string was_note = t.note;
    const auto was_since = t.differs_since;
    t.unshown = true;
    t.next_check = TimePoint::max();
    PortFindings findings{t, port_subject(port), ctx.findings(), now};

    const TrackedGidView* cache = t.view(GidView::cache);
    const bool cache_fresh = fresh(cache, now);
    judge_duplicates_in_port(port, cache_fresh ? cache : nullptr, settings_.examples, findings);

    const bool roce = is_roce(t, ctx.inventory(), port);
    const TrackedGidView* ref = t.view(roce ? GidView::netdev : GidView::sma);
    const bool comparable = cache_fresh && fresh(ref, now);
    std::string cache_evidence;
    std::string missing_evidence;
    std::string stale_evidence;
    bool differs = false;
    if (!comparable) {
        t.coherence = GidCoherence::unknown;
        t.note = unjudged_note(cache, ref, roce, cache_fresh);
        t.differs_since.reset();
    } else if (!roce) {
        cache_evidence = ib_cache_stale_evidence(port, t, *cache, *ref, settings_.examples,
                                                 coverage_.watched(port));
        differs = !cache_evidence.empty();
    } else {
        const auto m = compare_roce(cache->table, ref->table);
        differs = !m.empty();
        missing_evidence = roce_missing_evidence(port, m, settings_.examples);
        stale_evidence = roce_stale_evidence(port, m, settings_.examples);
    }
    const bool due = follow_grace(t, differs, comparable, now, settings_.cache_grace);
    findings.judge(kCacheStaleRule, std::move(cache_evidence), due);
    findings.judge(kRoceMissingRule, std::move(missing_evidence), due);
    findings.judge(kRoceStaleRule, std::move(stale_evidence), due);

    // A view that ages out changes the judgement without any observation.
    if (cache)
        t.next_check =
            std::min(t.next_check, cache->confirmed + settings_.view_max_age + Duration(1));
    if (ref)
        t.next_check =
            std::min(t.next_check, ref->confirmed + settings_.view_max_age + Duration(1));
    next_check_ = std::min(next_check_, t.next_check);
    if (t.coherence != was || t.note != was_note || t.differs_since != was_since) ++revision_;
}

}  // namespace rdmadiag::engine::gid
