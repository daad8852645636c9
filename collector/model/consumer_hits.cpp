#include "collector/model/consumer_hits.hpp"

#include <algorithm>

#include "collector/model/pkey.hpp"

namespace rdmadiag {

bool sends_from_gid_gone(const Consumer& consumer, const GidViewState* cache) {
    if (!consumer.gid ||
        (consumer.kind != ConsumerKind::cm_id && consumer.kind != ConsumerKind::srp))
        return false;
    if (cache == nullptr || !cache->table.complete()) return false;
    const auto& entries = cache->table.entries;
    return std::none_of(entries.begin(), entries.end(),
                        [&](const GidEntry& e) { return e.gid == *consumer.gid; });
}

bool finding_hits(const Finding& finding, const Consumer& consumer, const PortSnapshot& port) {
    if (finding.subject.device != consumer.device || finding.subject.port != consumer.port)
        return false;
    const std::string_view rule = finding.rule;
    if (rule == consumer_rule::pkey_absent || rule == consumer_rule::limited_only ||
        rule == consumer_rule::index_moved) {
        return finding.subject.pkey && consumer.pkey &&
               pkey_base(*finding.subject.pkey) == pkey_base(*consumer.pkey) &&
               (rule != consumer_rule::limited_only || consumer.kind == ConsumerKind::ipoib);
    }
    if (rule == consumer_rule::partition_changed) {
        return consumer.kind == ConsumerKind::ipoib && consumer.parent.empty();
    }
    if (rule == consumer_rule::gid_gone) {
        return sends_from_gid_gone(consumer, port.gids->find(GidView::cache));
    }
    return false;
}

}  // namespace rdmadiag
