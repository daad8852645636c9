// pkey.spurious_event: a PKEY_CHANGE after which the table reads exactly as the cache already held
// it. Harmless by itself, but consumers flush and reload on every event, and a stream of them
// usually means an SM that re-programs ports needlessly or a table that changed and changed back
// between two reads.

#include "collector/engine/pkey/rules/pkey_rule.hpp"

namespace rdmadiag::engine::pkey::rules {

void report_spurious_event(PKeyRuleContext& rc, TimePoint event_time) {
    const auto& dev = rc.track.view(PKeyView::device);
    rc.hold(rc.make(kRuleSpuriousEvent, Severity::info, rc.port_subject(), event_time,
                    "PKEY_CHANGE at " + format_time(event_time) +
                        " but the table read afterwards equals the cached one (device generation " +
                        std::to_string(dev.generation) + ", " + std::to_string(dev.table->used()) +
                        " keys)",
                    "Nothing to repair on this port. If these repeat, check whether the SM "
                    "re-programs ports on every sweep, or whether the table changes and changes "
                    "back faster than it is read (see pkey.flapping)."));
}

}  // namespace rdmadiag::engine::pkey::rules
