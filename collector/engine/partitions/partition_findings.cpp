#include "collector/engine/partitions/partition_findings.hpp"

#include <map>
#include <unordered_map>
#include <vector>

#include "collector/model/gid.hpp"

namespace rdmadiag::partitions {

namespace {

constexpr const char* kAdviceMissing =
    "The SM has not programmed these ports with the key, or could not. Check that the master SM "
    "reads this partitions.conf (opensm reads it at start and when it re-sweeps after a SIGHUP), "
    "the SM log for failed P_KeyTable Sets to these ports, and each port's PartitionCap (a full "
    "table takes no new key). Confirm a port with `smpquery pkeys <lid> <port>` and the SM's "
    "records with `saquery PKeyTableRecord`.";
constexpr const char* kAdviceUnexpected =
    "A key the SM was not told to give: set behind the SM's back (a P_KeyTable Set from a tool or "
    "another SM), left over from an earlier configuration (an orchestrator that assigns P_Keys per "
    "job or pod and did not take one back), or given by a master SM that reads another "
    "partitions.conf. Check which SM is master (`sminfo`) and which file it reads; a re-sweep of "
    "an "
    "SM reading this file takes the key back. Confirm with `smpquery pkeys <lid> <port>` and "
    "`saquery PKeyTableRecord`.";
constexpr const char* kAdviceMismatch =
    "Two limited members cannot talk to each other: a port that is limited where the file says "
    "full is cut off from the partition's other limited members, and a port that is full where the "
    "file says limited reaches all of them. Check the port's entry and the partition's defmember= "
    "in partitions.conf, and that the SM has re-read the file; confirm with `smpquery pkeys <lid> "
    "<port>` (bit 0x8000 is full membership) and `saquery PKeyTableRecord`.";

constexpr const char* kAdviceEnforcement =
    "A switch port that does not check P_Keys lets the node behind it send with keys it does not "
    "hold: a limited member set to full behind the SM's back, or any key, reaches the rest of the "
    "partition, and only the receiving ports can drop it. opensm sets enforcement on switch ports "
    "whose switch has a PartitionEnforcementCap as its part_enforce option says (both by default; "
    "in, out or off). Check that option and the switch's cap; confirm with `smpquery portinfo "
    "<switch lid> <port>` (PartEnforceInb, PartEnforceOutb) and `smpquery switchinfo <switch lid>` "
    "(PartEnforceCap).";

std::string port_text(const EndPort& p) {
    std::string s =
        p.node_name.empty() ? p.port.to_string() : p.node_name + ":" + std::to_string(p.port.port);
    if (p.guid) s += " " + format_guid(*p.guid);
    return s;
}

std::string holding_text(uint8_t holds) {
    return holds == 0 ? "none" : std::string(holding_name(holds));
}

std::string partition_text(const Partition& p) {
    std::string s = format_pkey(p.pkey);
    if (!p.name.empty()) s += " (" + p.name + ")";
    return s;
}

std::string ports_text(size_t n) {
    return std::to_string(n) + (n == 1 ? " port" : " ports");
}

const char* verb(size_t n, const char* one, const char* many) {
    return n == 1 ? one : many;
}

// One rule's ports in one partition: the first few named, all counted.
struct Ports {
    std::vector<const PartitionMember*> examples;
    size_t count = 0;
};

struct Judged {
    Ports missing, unexpected, mismatch, unenforced;
};

// A switch's external port that does not enforce partitions in both directions, and the end
// port on its link.
struct Unenforced {
    std::string port;  // "leaf01:3"
    bool inbound = false;
    bool outbound = false;
};

// The end ports of the model that face a switch port without enforcement, by model port index.
std::unordered_map<uint32_t, Unenforced> unenforced_links(const Snapshot& snapshot,
                                                          const PartitionModel& model) {
    std::unordered_map<uint32_t, Unenforced> out;
    std::map<PortRef, uint32_t> end_port;
    for (uint32_t i = 0; i < model.ports.size(); ++i) end_port.emplace(model.ports[i].port, i);
    std::unordered_map<uint64_t, const std::string*> device_of;
    for (const DeviceSnapshot& d : snapshot.devices) {
        if (d.present && d.info.node_guid) device_of.emplace(*d.info.node_guid, &d.info.device);
    }
    for (const DeviceSnapshot& d : snapshot.devices) {
        if (!d.present || node_kind(d.info.node_type) != NodeKind::switch_node) continue;
        for (const PortSnapshot& p : d.ports) {
            const PortStateSample& s = p.info;
            if (!p.present || p.ref.port == 0 || !s.partition_enforcement_inbound ||
                !s.partition_enforcement_outbound || !s.peer_node_guid || !s.peer_port)
                continue;
            if (*s.partition_enforcement_inbound && *s.partition_enforcement_outbound) continue;
            auto peer_device = device_of.find(*s.peer_node_guid);
            if (peer_device == device_of.end()) continue;
            auto peer = end_port.find(PortRef{*peer_device->second, *s.peer_port});
            if (peer == end_port.end()) continue;  // another switch: no member there
            const std::string name = d.info.node_desc
                                         ? *d.info.node_desc + ":" + std::to_string(p.ref.port)
                                         : p.ref.to_string();
            out[peer->second] = Unenforced{name, *s.partition_enforcement_inbound,
                                           *s.partition_enforcement_outbound};
        }
    }
    return out;
}

class Judge {
public:
    Judge(const PartitionModel& model, const std::unordered_map<uint32_t, Unenforced>& unenforced,
          const PartitionSettings& settings, engine::EngineContext& ctx)
        : model_(model), unenforced_(unenforced), settings_(settings), ctx_(ctx) {}

    void partition(const Partition& p) {
        Judged j;
        for (const PartitionMember& m : p.members) {
            switch (difference(model_, p, m)) {
                case MemberDifference::missing:
                    add(j.missing, m);
                    break;
                case MemberDifference::unexpected:
                    add(j.unexpected, m);
                    break;
                case MemberDifference::mismatch:
                    add(j.mismatch, m);
                    break;
                case MemberDifference::none:
                    break;
            }
            if (p.intended && m.in(MemberView::intent) == kHoldsLimited &&
                unenforced_.contains(m.port))
                add(j.unenforced, m);
        }
        const std::string file =
            model_.intent->path.empty() ? "partitions.conf" : model_.intent->path;
        const auto& intended = p.counts[static_cast<size_t>(MemberView::intent)];
        const uint32_t intended_ports = intended[0] + intended[1] + intended[2];
        if (j.missing.count > 0) {
            raise(kRuleMemberMissing, p,
                  partition_text(p) + ": " + std::to_string(j.missing.count) + " of the " +
                      ports_text(intended_ports) + " " + file + " makes members " +
                      verb(j.missing.count, "does", "do") + " not hold it: " + list(j.missing),
                  kAdviceMissing);
        }
        if (j.unexpected.count > 0) {
            const std::string why = p.intended ? "that " + file + " makes no member of it"
                                               : "while " + file + " does not define it";
            raise(kRuleUnexpectedMember, p,
                  partition_text(p) + ": " + ports_text(j.unexpected.count) + " " +
                      verb(j.unexpected.count, "holds", "hold") + " it " + why + ": " +
                      list(j.unexpected),
                  kAdviceUnexpected);
        }
        if (j.mismatch.count > 0) {
            raise(kRuleMembershipMismatch, p,
                  partition_text(p) + ": " + ports_text(j.mismatch.count) + " " +
                      verb(j.mismatch.count, "holds", "hold") +
                      " it with another membership than " + file + " gives: " + list(j.mismatch),
                  kAdviceMismatch);
        }
        if (j.unenforced.count > 0) {
            raise(kRuleEnforcementOff, p,
                  partition_text(p) + ": " + std::to_string(j.unenforced.count) +
                      (j.unenforced.count == 1 ? " switch port faces a limited member"
                                               : " switch ports face limited members") +
                      " of it without enforcing partitions: " + facing_list(j.unenforced),
                  kAdviceEnforcement);
        }
    }

    void clear_the_rest() {
        for (auto rule : {kRuleMemberMissing, kRuleUnexpectedMember, kRuleMembershipMismatch,
                          kRuleEnforcementOff}) {
            ctx_.findings().clear_rule_except(std::string(rule), raised_[rule_index(rule)],
                                              ctx_.now());
        }
    }

private:
    static size_t rule_index(std::string_view rule) {
        if (rule == kRuleMemberMissing) return 0;
        if (rule == kRuleUnexpectedMember) return 1;
        return rule == kRuleMembershipMismatch ? 2 : 3;
    }

    // "leaf01:3 (inbound off, outbound on) facing node05 HCA-1:1 0x..., ...; and 3 more"
    std::string facing_list(const Ports& ports) const {
        std::string s;
        for (const PartitionMember* m : ports.examples) {
            const Unenforced& u = unenforced_.at(m->port);
            if (!s.empty()) s += ", ";
            s += u.port + " (inbound " + (u.inbound ? "on" : "off") + ", outbound " +
                 (u.outbound ? "on" : "off") + ") facing " + port_text(model_.ports[m->port]);
        }
        if (ports.count > ports.examples.size())
            s += "; and " + std::to_string(ports.count - ports.examples.size()) + " more";
        return s;
    }

    void add(Ports& ports, const PartitionMember& m) const {
        if (ports.examples.size() < settings_.example_ports) ports.examples.push_back(&m);
        ++ports.count;
    }

    // "node01 HCA-1:1 0x... (intended full; sma holds limited), ...; and 3 more"
    std::string list(const Ports& ports) const {
        std::string s;
        for (const PartitionMember* m : ports.examples) {
            const EndPort& port = model_.ports[m->port];
            const MemberView held = held_view(port);
            if (!s.empty()) s += ", ";
            s += port_text(port) + " (intended " + holding_text(m->in(MemberView::intent)) + "; " +
                 std::string(to_string(held)) + " holds " + holding_text(m->in(held)) + ")";
        }
        if (ports.count > ports.examples.size())
            s += "; and " + std::to_string(ports.count - ports.examples.size()) + " more";
        return s;
    }

    void raise(std::string_view rule, const Partition& p, std::string evidence,
               const char* advice) {
        Finding f;
        f.rule = std::string(rule);
        f.severity = Severity::warning;
        f.subject.pkey = p.pkey;
        f.since = ctx_.now();
        f.evidence = std::move(evidence);
        f.advice = advice;
        raised_[rule_index(rule)].push_back(f.subject);
        ctx_.findings().raise(std::move(f));
    }

    const PartitionModel& model_;
    const std::unordered_map<uint32_t, Unenforced>& unenforced_;
    const PartitionSettings& settings_;
    engine::EngineContext& ctx_;
    std::vector<FindingSubject> raised_[4];
};

}  // namespace

void judge_partitions(const Snapshot& snapshot, const PartitionModel& model,
                      const PartitionSettings& settings, engine::EngineContext& ctx) {
    const auto unenforced = model.intent ? unenforced_links(snapshot, model)
                                         : std::unordered_map<uint32_t, Unenforced>{};
    Judge judge(model, unenforced, settings, ctx);
    if (model.intent) {
        for (const Partition& p : model.partitions) {
            if (model.judged(p)) judge.partition(p);
        }
    }
    judge.clear_the_rest();
}

}  // namespace rdmadiag::partitions
