#include "collector/engine/consumers/consumer_rules.hpp"

#include <algorithm>
#include <map>

#include "collector/engine/consumers/pkey_index.hpp"

namespace rdmadiag::engine::consumers {

namespace {

constexpr const char* kAdviceAbsent =
    "Either the SM no longer gives this port the key (check the port's GUID in the partition in "
    "partitions.conf and that the master SM re-read it), or these consumers should not use it any "
    "more: delete the IPoIB child (`ip link delete IF`), log the SRP target out, restart the "
    "application. An IPoIB child whose key is absent stays up with its carrier off; an SRP login "
    "with it fails. Confirm with `cat /sys/class/infiniband/DEV/ports/PORT/pkeys/*`, "
    "`ip -d link show IF` (pkey, carrier) and `smpquery pkeys <lid> <port>`.";
constexpr const char* kAdviceLimited =
    "Two limited members cannot talk to each other: this interface reaches the partition's full "
    "members only. If it should reach every member, make the port a full member in "
    "partitions.conf (GUID=full, or defmember=full) and let the SM re-read it. Confirm with "
    "`smpquery pkeys <lid> <port>` (bit 0x8000 is full membership).";
constexpr const char* kAdvicePartitionChanged =
    "A parent IPoIB interface sends on P_Key index 0 and takes whatever key the SM puts there: its "
    "broadcast group and its IPv6 multicast addresses change with the key, and the hosts it talked "
    "to may no longer be in its partition. If the SM moved index 0 by mistake, put the key back "
    "(partitions.conf); otherwise move the traffic to an IPoIB child of the old key. Confirm with "
    "`ip -d link show IF` (pkey) and `cat /sys/class/infiniband/DEV/ports/PORT/pkeys/0`.";
constexpr const char* kAdviceIndexMoved =
    "A consumer that cached the old index now sends with another key, or none: UD traffic is "
    "dropped as P_Key violations until it looks the key up again. The kernel restarts its IPoIB "
    "interfaces on the PKEY_CHANGE event (a carrier bounce); one that did not restart missed the "
    "event: `ip link set IF down && ip link set IF up` makes it look again. UD applications must "
    "re-create their address handles and QPs; RDMA CM turns the change into events for its UD IDs. "
    "Confirm with `ip -s link show IF` (carrier changes), `rdma resource show qp` and the port's "
    "P_Key violation counter.";
constexpr const char* kAdviceGidGone =
    "The address or GUID these consumers bound to is no longer in the port's GID table: what they "
    "send from that GID fails, and new connections from it cannot be made. RDMA CM applications "
    "get an ADDR_CHANGE event and should reconnect; an SRP host reconnects through its "
    "reconnect_delay. Restore the address (RoCE) or the port GUID the SM assigned (InfiniBand), or "
    "restart the consumers on a GID the port has. Confirm with `rdma resource show cm_id` and "
    "`cat /sys/class/infiniband/DEV/ports/PORT/gids/*`.";

const PKeyViewState* primary_view(const PortSnapshot& port) {
    if (const auto* d = port.pkeys.find(PKeyView::device)) return d;
    return port.pkeys.find(PKeyView::sma);
}

std::string kind_text(const Consumer& c) {
    switch (c.kind) {
        case ConsumerKind::ipoib:
            return c.parent.empty() ? "IPoIB" : "IPoIB child of " + c.parent;
        case ConsumerKind::srp:
            return "SRP";
        case ConsumerKind::cm_id:
            return "RDMA CM";
        case ConsumerKind::qp:
            return "QP";
    }
    return "";
}

std::string owner_text(const ConsumerOwner& o) {
    if (o.pid) return (o.name.empty() ? "pid " : o.name + " pid ") + std::to_string(*o.pid);
    return o.name;
}

// "ib0.8001 (IPoIB child of ib0, carrier off)", "cm_id 5 (RDMA CM, rping pid 145, UD)".
std::string consumer_text(const Consumer& c) {
    if (c.kind == ConsumerKind::qp) {
        return std::to_string(c.count) + " " + c.qp_type + (c.count == 1 ? " QP" : " QPs") +
               (c.owner.name.empty() && !c.owner.pid ? "" : " of " + owner_text(c.owner));
    }
    std::string s = c.name + " (" + kind_text(c);
    if (c.kind == ConsumerKind::cm_id && !owner_text(c.owner).empty())
        s += ", " + owner_text(c.owner);
    if (c.kind == ConsumerKind::cm_id && !c.qp_type.empty()) s += ", " + c.qp_type;
    if (c.carrier) s += *c.carrier ? ", carrier on" : ", carrier off";
    return s + ")";
}

std::string join(const std::vector<std::string>& parts) {
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) s += i + 1 == parts.size() ? " and " : ", ";
        s += parts[i];
    }
    return s;
}

Finding finding(const char* rule, Severity severity, FindingSubject subject, TimePoint now,
                std::string evidence, const char* advice) {
    Finding f;
    f.rule = rule;
    f.severity = severity;
    f.subject = std::move(subject);
    f.since = now;
    f.evidence = std::move(evidence);
    f.advice = advice;
    return f;
}

struct PortConsumers {
    const PortSnapshot* port = nullptr;
    std::vector<const Consumer*> consumers;
};

// Each port's consumers, with the port as the snapshot holds it.
std::map<PortRef, PortConsumers> by_port(const std::vector<ConsumerInventory>& inventories,
                                         const Snapshot& snapshot) {
    std::map<PortRef, PortConsumers> out;
    for (const auto& inv : inventories) {
        for (const auto& c : inv.consumers) {
            if (c.port == 0) continue;
            const PortRef ref{inv.device, c.port};
            const PortSnapshot* port = snapshot.find_port(ref);
            if (!port || !port->present) continue;
            auto& pc = out[ref];
            pc.port = port;
            pc.consumers.push_back(&c);
        }
    }
    return out;
}

void judge_absent_and_limited(const PortRef& ref, const PortConsumers& pc, TimePoint now,
                              std::vector<Finding>& out) {
    const auto* view = primary_view(*pc.port);
    if (!view || !view->table.complete() || view->table.keys.empty()) return;
    const PKeyTable& table = view->table;
    std::map<uint16_t, std::vector<const Consumer*>> absent;  // by base key
    std::map<uint16_t, std::pair<uint16_t, std::vector<const Consumer*>>> limited;
    for (const auto* c : pc.consumers) {
        if (!c->pkey || pkey_is_empty(*c->pkey)) continue;
        const auto index = c->kind == ConsumerKind::ipoib ? ipoib_pkey_index(*c, table)
                                                          : find_pkey_index(table, *c->pkey);
        if (!index) {
            absent[pkey_base(*c->pkey)].push_back(c);
        } else if (c->kind == ConsumerKind::ipoib && !pkey_is_full(table.keys[*index])) {
            auto& l = limited[pkey_base(table.keys[*index])];
            l.first = *index;
            l.second.push_back(c);
        }
    }
    const std::string where = ref.to_string() + "'s table (" + std::string(to_string(view->view)) +
                              " view, generation " + std::to_string(view->generation) + ")";
    for (const auto& [base, consumers] : absent) {
        std::vector<std::string> names;
        std::vector<std::string> still_up;
        for (const auto* c : consumers) {
            names.push_back(consumer_text(*c));
            if (c->kind == ConsumerKind::ipoib && c->carrier == true) still_up.push_back(c->name);
        }
        const uint16_t key = *consumers.front()->pkey;
        std::string evidence = "P_Key " + format_pkey(key) + " is not in " + where + "; " +
                               (consumers.size() == 1 ? "its consumer: " : "its consumers: ") +
                               join(names) + ".";
        if (!still_up.empty())
            evidence += " " + join(still_up) +
                        (still_up.size() == 1 ? " still has its" : " still have their") +
                        " carrier: the kernel has not acted on the change (a PKEY_CHANGE event not "
                        "delivered, or the table read is newer than the event).";
        out.push_back(finding(kRulePkeyAbsent, Severity::warning,
                              FindingSubject{ref.device, ref.port, std::nullopt, key}, now,
                              std::move(evidence), kAdviceAbsent));
    }
    for (const auto& [base, held] : limited) {
        std::vector<std::string> names;
        for (const auto* c : held.second) names.push_back(consumer_text(*c));
        const uint16_t key = table.keys[held.first];
        out.push_back(finding(
            kRuleLimitedOnly, Severity::info,
            FindingSubject{ref.device, ref.port, std::nullopt, key}, now,
            join(names) + " use" + (held.second.size() == 1 ? "s" : "") + " P_Key " +
                format_pkey(static_cast<uint16_t>(key | kPKeyMembershipBit)) + ", which " +
                ref.to_string() + " holds only as " + format_pkey(key) + " (limited, index " +
                std::to_string(held.first) +
                "): it reaches the partition's full members, not its other limited members.",
            kAdviceLimited));
    }
}

// The key index 0 held before the diff, when the diff changed index 0.
std::optional<uint16_t> old_key_at_zero(const PKeyDiff& diff) {
    for (const auto& ch : diff.changes) {
        if (ch.index == 0) {
            if (ch.kind == PKeyChangeKind::added || ch.kind == PKeyChangeKind::moved)
                return ch.previous_key.value_or(0);
            return ch.old_key;
        }
        if (ch.kind == PKeyChangeKind::moved && ch.old_index == 0) return ch.old_key;
    }
    return std::nullopt;
}

void judge_partition_changed(const PortRef& ref, const PortConsumers& pc, TimePoint now,
                             const ConsumerRuleSettings& settings, std::vector<Finding>& out) {
    const auto& diff = pc.port->pkeys.last_diff;
    const auto* view = primary_view(*pc.port);
    if (!diff || !view || view->table.keys.empty() || now - diff->time > settings.change_window)
        return;
    const auto old_key = old_key_at_zero(*diff);
    if (!old_key) return;
    const uint16_t new_key = view->table.keys[0];
    std::vector<std::string> parts;
    for (const auto* c : pc.consumers) {
        if (c->kind != ConsumerKind::ipoib || !c->parent.empty()) continue;
        std::string s = consumer_text(*c);
        if (c->pkey && pkey_base(*c->pkey) == pkey_base(new_key)) {
            s += " now reports " + format_pkey(*c->pkey) + " (it followed)";
        } else if (c->pkey) {
            s += " still reports " + format_pkey(*c->pkey) +
                 " (it has not followed: its PKEY_CHANGE event may have been lost)";
        }
        parts.push_back(s);
    }
    if (parts.empty()) return;
    out.push_back(finding(kRulePartitionChanged, Severity::warning,
                          FindingSubject{ref.device, ref.port, uint16_t{0}, std::nullopt}, now,
                          "Index 0 of " + ref.to_string() + " held " + format_pkey(*old_key) +
                              " and holds " + format_pkey(new_key) + " since " +
                              format_time(diff->time) + ": " + join(parts) +
                              (parts.size() == 1 ? " sends" : " send") + " on index 0.",
                          kAdvicePartitionChanged));
}

void judge_index_moved(const PortRef& ref, const PortConsumers& pc, const CarrierHistory& carriers,
                       TimePoint now, const ConsumerRuleSettings& settings,
                       std::vector<Finding>& out) {
    const auto& diff = pc.port->pkeys.last_diff;
    if (!diff || now - diff->time > settings.change_window) return;
    uint32_t ud_qps = 0;
    for (const auto* c : pc.consumers)
        if (c->kind == ConsumerKind::qp && c->qp_type == "UD") ud_qps += c->count;
    for (const auto& ch : diff->changes) {
        // A key that moved: its consumers held the old index. An index reused for another key:
        // the consumers of the key it held before now send with the new one.
        std::optional<uint16_t> key;
        std::string what;
        if (ch.kind == PKeyChangeKind::moved && ch.old_index) {
            key = ch.new_key;
            what = "P_Key " + format_pkey(ch.new_key) + " moved from index " +
                   std::to_string(*ch.old_index) + " to " + std::to_string(ch.index);
        } else if (ch.previous_key && !pkey_is_empty(*ch.previous_key)) {
            key = *ch.previous_key;
            what = "index " + std::to_string(ch.index) + " now holds " + format_pkey(ch.new_key) +
                   " where " + format_pkey(*ch.previous_key) + " sat";
        }
        if (!key || (ch.index == 0 || ch.old_index == 0)) continue;  // index 0: partition_changed
        std::vector<std::string> hit;
        bool missed_restart = false;
        for (const auto* c : pc.consumers) {
            if (!c->pkey || pkey_base(*c->pkey) != pkey_base(*key)) continue;
            const bool ud = c->kind == ConsumerKind::ipoib ||
                            (c->kind == ConsumerKind::cm_id && c->qp_type == "UD");
            if (!ud) continue;
            std::string s = consumer_text(*c);
            if (c->kind == ConsumerKind::ipoib) {
                switch (carriers.restarted_after(ref.device, c->name,
                                                 diff->time - settings.change_lead, diff->time)) {
                    case CarrierHistory::Restart::seen:
                        s += " restarted (its carrier bounced)";
                        break;
                    case CarrierHistory::Restart::not_seen:
                        if (now - diff->time > settings.restart_bound) {
                            s += " has not restarted in " +
                                 format_duration(settings.restart_bound) + " (event missed?)";
                            missed_restart = true;
                        } else {
                            s += " has not restarted yet";
                        }
                        break;
                    case CarrierHistory::Restart::unknown:
                        s += " (whether it restarted is not known: no carrier counts)";
                        break;
                }
            }
            hit.push_back(s);
        }
        if (hit.empty() && ud_qps == 0) continue;
        std::string evidence =
            "On " + ref.to_string() + " " + what + " at " + format_time(diff->time) + ".";
        if (!hit.empty()) evidence += " UD consumers of the key: " + join(hit) + ".";
        if (ud_qps)
            evidence += " The port has " + std::to_string(ud_qps) + " UD QP" +
                        (ud_qps == 1 ? "" : "s") +
                        " whose P_Key index the kernel does not "
                        "export.";
        out.push_back(finding(kRuleIndexMoved, missed_restart ? Severity::warning : Severity::info,
                              FindingSubject{ref.device, ref.port, std::nullopt, *key}, now,
                              std::move(evidence), kAdviceIndexMoved));
    }
}

void judge_gid_gone(const PortRef& ref, const PortConsumers& pc, TimePoint now,
                    std::vector<Finding>& out) {
    const GidViewState* cache = pc.port->gids->find(GidView::cache);
    std::vector<std::string> gone;
    for (const auto* c : pc.consumers) {
        if (sends_from_gid_gone(*c, cache))
            gone.push_back(consumer_text(*c) + " from " + c->gid->to_string());
    }
    if (gone.empty()) return;
    out.push_back(finding(kRuleGidGone, Severity::warning,
                          FindingSubject{ref.device, ref.port, std::nullopt, std::nullopt}, now,
                          join(gone) + (gone.size() == 1 ? " sends" : " send") +
                              " from a GID that " + ref.to_string() +
                              "'s GID table (cache view) no longer holds.",
                          kAdviceGidGone));
}

}  // namespace

void infer_indexes(std::vector<ConsumerInventory>& inventories, const Snapshot& snapshot,
                   const CarrierHistory& carriers, const ConsumerRuleSettings& settings) {
    for (auto& inv : inventories) {
        for (auto& c : inv.consumers) {
            if (c.kind != ConsumerKind::ipoib || c.port == 0) continue;
            c.pkey_index.reset();
            c.index_source = IndexSource::none;
            const auto* port = snapshot.find_port(PortRef{inv.device, c.port});
            const auto* view = port ? primary_view(*port) : nullptr;
            if (!view) continue;
            if (auto index = ipoib_pkey_index(c, view->table)) {
                c.pkey_index = index;
                c.index_source = IndexSource::inferred;
            }
            // A child that did not restart after its key moved still sends on the old index.
            const auto& diff = port->pkeys.last_diff;
            if (!diff || c.parent.empty() || !c.pkey) continue;
            for (const auto& ch : diff->changes) {
                if (ch.kind != PKeyChangeKind::moved || !ch.old_index ||
                    pkey_base(ch.new_key) != pkey_base(*c.pkey))
                    continue;
                if (carriers.restarted_after(inv.device, c.name, diff->time - settings.change_lead,
                                             diff->time) == CarrierHistory::Restart::not_seen) {
                    c.pkey_index = ch.old_index;
                    c.index_source = IndexSource::inferred;
                }
            }
        }
    }
}

std::vector<Finding> judge_consumers(const std::vector<ConsumerInventory>& inventories,
                                     const Snapshot& snapshot, const CarrierHistory& carriers,
                                     TimePoint now, const ConsumerRuleSettings& settings) {
    std::vector<Finding> out;
    for (const auto& [ref, pc] : by_port(inventories, snapshot)) {
        judge_absent_and_limited(ref, pc, now, out);
        judge_partition_changed(ref, pc, now, settings, out);
        judge_index_moved(ref, pc, carriers, now, settings, out);
        judge_gid_gone(ref, pc, now, out);
    }
    return out;
}

}  // namespace rdmadiag::engine::consumers
