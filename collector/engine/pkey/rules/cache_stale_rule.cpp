// pkey.cache_stale: the kernel and IPoIB re-read their P_Key cache only when a PKEY_CHANGE is
// delivered, and the kernel drops that work silently when it cannot allocate it. A device table
// that changed without the event reaching the port's consumers leaves them on the old table.

#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey::rules {

namespace {

constexpr const char* kStaleCacheAdvice =
    "Consumers that cache the P_Key table (the kernel cache, IPoIB, ULPs such as NFS/RDMA) "
    "probably still use the old table: their QPs may send with a wrong or empty P_Key. Check the "
    "kernel log for failed P_Key cache updates; have the SM re-program the port (an opensm "
    "re-sweep), or restart the affected consumer (ip link set <ib iface> down/up) so it reloads.";

std::string stale_evidence(const PKeyRuleContext& rc, TimePoint since) {
    const auto& dev = rc.track.view(PKeyView::device);
    const auto& cache = rc.track.view(PKeyView::cache);
    std::string e = "device table is at generation " + std::to_string(dev.generation) + " (since " +
                    format_time(dev.changed) + ") but the cache was last loaded from generation " +
                    std::to_string(cache.loaded_generation) + " at " + format_time(cache.changed) +
                    "; no PKEY_CHANGE delivered for " + format_duration(rc.now() - since);
    const auto diff = diff_pkey_tables(cache.table->unpack(), dev.table->unpack());
    e += "; cache vs device: " + describe_changes(diff);
    return e;
}

}  // namespace

TimePoint judge_cache_staleness(PKeyRuleContext& rc) {
    auto& t = rc.track;
    const auto& dev = t.view(PKeyView::device);
    const auto& cache = t.view(PKeyView::cache);
    if (!dev.present() || !cache.present()) {
        t.cache = CacheJudgement::unknown;
        t.stale_since.reset();
        rc.clear_port(kRuleCacheStale);
        return TimePoint::max();
    }
    if (!t.watched) {
        // Nobody delivers this port's events: a difference proves nothing about real consumers.
        t.cache = CacheJudgement::not_watched;
        t.stale_since.reset();
        rc.clear_port(kRuleCacheStale);
        return TimePoint::max();
    }
    if (dev.table == cache.table || *dev.table == *cache.table ||
        pkey_tables_agree(dev.table->unpack(), cache.table->unpack())) {
        t.cache = CacheJudgement::coherent;
        t.stale_since.reset();
        rc.clear_port(kRuleCacheStale);
        return TimePoint::max();
    }
    if (!t.stale_since) t.stale_since = rc.now();
    const TimePoint due = *t.stale_since + rc.settings.cache_grace;
    if (rc.now() < due || t.reload_pending) {
        // Within grace, or an event arrived and the reload waits for the fresh read.
        t.cache = CacheJudgement::pending;
        return t.reload_pending ? t.reload_requested + rc.settings.reload_wait : due;
    }
    t.cache = CacheJudgement::stale;
    rc.raise_port(rc.make(kRuleCacheStale, Severity::warning, rc.port_subject(), *t.stale_since,
                          stale_evidence(rc, *t.stale_since), kStaleCacheAdvice));
    // Evidence carries the duration: refresh it about once per grace period.
    return rc.now() + rc.settings.cache_grace;
}

void note_cache_healed(PKeyRuleContext& rc) {
    auto& t = rc.track;
    if (!t.stale_since) return;
    const auto subject = rc.port_subject();
    const Finding* active = rc.ctx.findings().find(std::string(kRuleCacheStale), subject);
    if (active) {
        Finding f = *active;
        f.evidence = "cache was stale for " + format_duration(rc.now() - *t.stale_since) +
                     " until a PKEY_CHANGE at " + format_time(t.reload_requested) +
                     " reloaded it (device generation " +
                     std::to_string(t.view(PKeyView::device).generation) + ")";
        rc.ctx.findings().raise(std::move(f));
        rc.clear_port(kRuleCacheStale);
    }
    t.stale_since.reset();
}

}  // namespace rdmadiag::engine::pkey::rules
