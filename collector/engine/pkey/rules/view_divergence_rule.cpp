// pkey.view_divergence: the device, its SMA and the SM should hold the same table once the SM has
// programmed the port. A lasting difference means the SM has not (or could not) program it, or a
// view is read from the wrong place.

#include "collector/engine/pkey/pkey_diff.hpp"
#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey::rules {

namespace {

constexpr const char* kDivergenceAdvice =
    "The SM's intended table and what the port holds differ. Check the SM log for failed "
    "P_KeyTable sets to this port, the partition configuration (partitions.conf) for this "
    "port's GUID, and the port's PartitionCap; a re-sweep (opensm SIGHUP) re-programs the port.";

std::string differences(const PKeyTable& a, const PKeyTable& b) {
    std::string s;
    for (auto i : pkey_disagreements(a, b, 4)) {
        if (!s.empty()) s += ", ";
        const uint16_t ka = i < a.keys.size() ? a.keys[i] : 0;
        const uint16_t kb = i < b.keys.size() ? b.keys[i] : 0;
        s += "index " + std::to_string(i) + " " + format_pkey(ka) + "/" + format_pkey(kb);
    }
    return s;
}

}  // namespace

TimePoint judge_view_divergence(PKeyRuleContext& rc) {
    auto& t = rc.track;
    const PortPKeyTrack& seen = t;  // reads only: no view is made for a port that has none
    const PKeyView compared[] = {PKeyView::device, PKeyView::sma, PKeyView::sm};
    std::string evidence;
    TimePoint next_expiry = TimePoint::max();
    int live = 0;
    for (size_t i = 0; i < 3; ++i) {
        const auto& a = seen.view(compared[i]);
        if (!a.present() || rc.now() - a.confirmed > rc.settings.view_max_age) continue;
        ++live;
        next_expiry = std::min(next_expiry, a.confirmed + rc.settings.view_max_age);
        for (size_t j = i + 1; j < 3; ++j) {
            const auto& b = seen.view(compared[j]);
            if (!b.present() || rc.now() - b.confirmed > rc.settings.view_max_age) continue;
            if (a.table == b.table || *a.table == *b.table) continue;
            const PKeyTable ta = a.table->unpack(), tb = b.table->unpack();
            if (pkey_tables_agree(ta, tb)) continue;
            if (!evidence.empty()) evidence += "; ";
            evidence += std::string(to_string(compared[i])) + " vs " +
                        std::string(to_string(compared[j])) + " (generations " +
                        std::to_string(a.generation) + "/" + std::to_string(b.generation) +
                        "): " + differences(ta, tb);
        }
    }
    if (live < 2 || evidence.empty()) {
        t.divergent_since.reset();
        rc.clear_port(kRuleViewDivergence);
        return next_expiry;
    }
    if (!t.divergent_since) t.divergent_since = rc.now();
    const TimePoint due = *t.divergent_since + rc.settings.divergence_grace;
    if (rc.now() < due) return std::min(due, next_expiry);
    evidence =
        "views disagree for " + format_duration(rc.now() - *t.divergent_since) + ": " + evidence;
    rc.raise_port(rc.make(kRuleViewDivergence, Severity::warning, rc.port_subject(),
                          *t.divergent_since, std::move(evidence), kDivergenceAdvice));
    return std::min(next_expiry, rc.now() + rc.settings.divergence_grace);
}

}  // namespace rdmadiag::engine::pkey::rules
