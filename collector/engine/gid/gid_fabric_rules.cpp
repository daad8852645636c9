// The rules that judge ports against each other: gid.prefix_mismatch (ports of one subnet that
// disagree on the subnet prefix) and gid.duplicate (one port GUID on two ports).

#include <algorithm>
#include <unordered_map>

#include "collector/engine/gid/gid_rules.hpp"
#include "collector/engine/gid/gid_views.hpp"
#include "collector/model/node_names.hpp"

namespace rdmadiag::engine::gid {

namespace {

constexpr const char* kPrefixAdvice =
    "The SM gives every port of a subnet its subnet prefix (opensm: subnet_prefix) through "
    "PortInfo; a port holding another one answers to GIDs nobody routes to it, and rdma_cm path "
    "resolution to it fails. Confirm with `smpquery portinfo <lid> <port>` (GidPrefix) on the "
    "ports named here and `saquery -P` for the SM's records. Repair: have the SM program the port "
    "again (a heavy sweep, or restart the SM); a port the SM cannot program keeps its old prefix "
    "(check the SM's log for errors about it, M_Key protection, a dead link).";

constexpr const char* kDuplicateGuidAdvice =
    "Two ports answer with one port GUID: the SM and the SA cannot tell them apart, paths and "
    "multicast joins for that GUID go to either, and GID-based connections reach the wrong host. "
    "Usually a cloned virtual HCA or an SR-IOV virtual function given the same GUID twice. "
    "Confirm with `ibnetdiscover -p` or `saquery -P`. Repair: give each (virtual) port its own "
    "GUID (`ip link set <pf> vf <n> port_guid <guid>` for SR-IOV) and restart its driver.";

bool subnet_scope(const PortRef& p) {
    return is_guid_name(p.device);
}

}  // namespace

void GidViews::judge_prefixes(EngineContext& ctx) {
    const TimePoint now = ctx.now();
    const auto groups = group_prefixes(majority_prefixes(now), now);
    std::vector<FindingSubject> keep;
    for (const auto& [source, g] : groups) {
        if (g.off.empty()) continue;
        FindingSubject subject;
        subject.device = "subnet:" + source_names_.name(source);
        keep.push_back(subject);
        raise_prefix_mismatch(source, g, std::move(subject), ctx);
    }
    ctx.findings().clear_rule_except(kRulePrefixMismatch, keep, now);
}

std::unordered_map<uint16_t, uint64_t> GidViews::majority_prefixes(TimePoint now) const {
    // Most ports' prefix per sweep (by the source that read their SMA), for ports whose SM view
    // is not read.
    std::unordered_map<uint16_t, std::unordered_map<uint64_t, size_t>> counts;
    for (const auto& [port, t] : ports_) {
        const auto* sma = t.view(GidView::sma);
        if (!subnet_scope(port) || !fresh(sma, now)) continue;
        if (const auto* e = sma->table.at(0)) ++counts[sma->source][e->gid.prefix()];
    }
    std::unordered_map<uint16_t, uint64_t> majority;
    for (const auto& [source, by_prefix] : counts) {
        std::pair<uint64_t, size_t> best{0, 0};
        for (const auto& [prefix, n] : by_prefix) {
            if (n > best.second || (n == best.second && prefix < best.first)) best = {prefix, n};
        }
        majority[source] = best.first;
    }
    return majority;
}

std::unordered_map<uint16_t, GidViews::PrefixGroup> GidViews::group_prefixes(
    std::unordered_map<uint16_t, uint64_t> majority, TimePoint now) {
    std::unordered_map<uint16_t, PrefixGroup> groups;
    for (auto& [port, t] : ports_) {
        const auto* sma = t.view(GidView::sma);
        const GidEntry* mine = fresh(sma, now) ? sma->table.at(0) : nullptr;
        if (mine == nullptr) {
            t.prefix_differs_since.reset();
            continue;
        }
        std::optional<uint64_t> reference;
        bool from_sm = false;
        const auto* sm = t.view(GidView::sm);
        if (fresh(sm, now) && sm->table.at(0) != nullptr) {
            reference = sm->table.at(0)->gid.prefix();
            from_sm = true;
        } else if (subnet_scope(port)) {
            reference = majority[sma->source];
        }
        auto& g = groups[sma->source];
        ++g.ports;
        if (!reference || *reference == mine->gid.prefix()) {
            t.prefix_differs_since.reset();
            continue;
        }
        // Against the SM: since the later of the two readings that disagree (reviews run only
        // with snapshots). Against most ports, which move at their own times: since this review.
        if (!t.prefix_differs_since) {
            t.prefix_differs_since = from_sm ? std::max(sma->changed, sm->changed) : now;
        }
        const TimePoint due = *t.prefix_differs_since + settings_.prefix_grace;
        if (now < due) {
            next_review_ = std::min(next_review_, due);
            continue;
        }
        g.off.emplace_back(port, mine->gid.prefix());
        g.since = g.since ? std::min(*g.since, *t.prefix_differs_since) : *t.prefix_differs_since;
        g.from_sm = g.from_sm || from_sm;
        g.reference = *reference;
    }
    return groups;
}

void GidViews::raise_prefix_mismatch(uint16_t source, const PrefixGroup& g, FindingSubject subject,
                                     EngineContext& ctx) {
    std::string e = std::to_string(g.off.size()) + " of " + std::to_string(g.ports) +
                    " ports read by " + source_names_.name(source) +
                    " hold another subnet prefix than " +
                    (g.from_sm ? std::string("the SM gives them (SA PortInfoRecord), ")
                               : std::string("most ports, ")) +
                    format_subnet_prefix(g.reference) + ": ";
    for (size_t i = 0; i < g.off.size() && i < settings_.examples; ++i) {
        if (i > 0) e += ", ";
        e += g.off[i].first.to_string() + " " + format_subnet_prefix(g.off[i].second);
    }
    if (g.off.size() > settings_.examples) {
        e += " and " + std::to_string(g.off.size() - settings_.examples) + " more";
    }
    Finding f;
    f.rule = kRulePrefixMismatch;
    f.severity = Severity::warning;
    f.subject = std::move(subject);
    f.since = g.since.value_or(ctx.now());
    f.evidence = std::move(e);
    f.advice = kPrefixAdvice;
    ctx.findings().raise(std::move(f));
}

void GidViews::judge_duplicate_guids(EngineContext& ctx) {
    const TimePoint now = ctx.now();
    // Each kind of view apart: a host that reads its own port through sysfs (mlx5_0:1) and in a
    // subnet sweep (guid:0x...:1) sees one port under two names, once in each kind.
    for (GidView kind : {GidView::sma, GidView::cache}) {
        std::unordered_map<uint64_t, std::vector<PortRef>> by_guid;
        for (const auto& [port, t] : ports_) {
            const auto* v = t.view(kind);
            if (!fresh(v, now)) continue;
            const GidEntry* e = v->table.at(0);
            if (e == nullptr || e->type != GidType::ib || e->gid.interface_id() == 0) continue;
            by_guid[e->gid.interface_id()].push_back(port);
        }
        for (auto& [port, t] : ports_) {
            const auto* v = t.view(kind);
            const GidEntry* e = fresh(v, now) ? v->table.at(0) : nullptr;
            const std::vector<PortRef>* same = nullptr;
            if (e != nullptr && e->type == GidType::ib) {
                auto it = by_guid.find(e->gid.interface_id());
                if (it != by_guid.end() && it->second.size() > 1) same = &it->second;
            }
            const uint8_t bit = kind == GidView::sma ? kDuplicateGuidBit : kDuplicateCacheGuidBit;
            FindingSubject subject{port.device, port.port, std::nullopt, std::nullopt,
                                   std::nullopt};
            if (same == nullptr) {
                if (t.active & bit) {
                    // Another kind may still hold the finding up.
                    const uint8_t other =
                        kind == GidView::sma ? kDuplicateCacheGuidBit : kDuplicateGuidBit;
                    if (!(t.active & other)) ctx.findings().clear(kRuleDuplicate, subject, now);
                    t.active &= static_cast<uint8_t>(~bit);
                    t.unshown = true;
                }
                continue;
            }
            std::string others;
            size_t n = 0;
            for (const auto& o : *same) {
                if (o == port) continue;
                if (n++ == settings_.examples) break;
                if (!others.empty()) others += ", ";
                others += o.to_string();
            }
            Finding f;
            f.rule = kRuleDuplicate;
            f.severity = Severity::critical;
            f.subject = subject;
            f.since = v->changed;
            f.evidence = "port GUID " + format_guid(e->gid.interface_id()) + " (" +
                         std::string(to_string(kind)) + " view, GID index 0) is also held by " +
                         others;
            f.advice = kDuplicateGuidAdvice;
            ctx.findings().raise(std::move(f));
            t.active |= bit;
        }
    }
}

}  // namespace rdmadiag::engine::gid
