#include "collector/engine/partitions/partition_model.hpp"

#include <algorithm>
#include <unordered_map>

#include "collector/model/gid.hpp"

namespace rdmadiag::partitions {

namespace {

// One key held (or intended) by one port in one view.
struct Fact {
    uint16_t pkey;
    uint8_t view;
    uint8_t bits;
    uint32_t port;
};

bool is_end_port(NodeKind kind, uint32_t port) {
    return kind == NodeKind::switch_node ? port == 0 : port != 0;
}

class ModelBuilder {
public:
    ModelBuilder(const Snapshot& snapshot, const ModelOptions& options) : options_(options) {
        collect_ports(snapshot);
    }

    PartitionModel build(const PartitionsConf* intent) {
        if (intent) add_intent(*intent);
        fold();
        if (intent) name_partitions(*intent);
        return std::move(model_);
    }

    static PartitionIntentInfo intent_info(const PartitionsConf& intent) {
        PartitionIntentInfo info;
        for (const ConfIssue& issue : intent.issues)
            info.issues.push_back(PartitionIntentIssue{issue.line, issue.skipped, issue.message});
        info.generated_keys =
            std::any_of(intent.partitions.begin(), intent.partitions.end(),
                        [](const PartitionIntent& p) { return !p.pkey.has_value(); });
        return info;
    }

private:
    void collect_ports(const Snapshot& snapshot) {
        for (const DeviceSnapshot& dev : snapshot.devices) {
            if (!dev.present) continue;
            const NodeKind kind = node_kind(dev.info.node_type);
            for (const PortSnapshot& p : dev.ports) {
                if (!p.present || !is_end_port(kind, p.ref.port)) continue;
                if (p.info.link_layer && *p.info.link_layer != LinkLayer::infiniband) continue;
                EndPort ep;
                ep.port = p.ref;
                ep.kind = kind;
                ep.guid = p.info.port_guid;
                // A switch's port 0 carries the switch's GUID where no port GUID was read.
                if (!ep.guid && kind == NodeKind::switch_node) ep.guid = dev.info.node_guid;
                if (dev.info.node_desc) ep.node_name = *dev.info.node_desc;
                const auto index = static_cast<uint32_t>(model_.ports.size());
                if (ep.guid) by_guid_.emplace(*ep.guid, index);
                for (const PKeyViewState& v : p.pkeys.views) {
                    const auto view = static_cast<uint8_t>(member_view(v.view));
                    ep.views_read |= static_cast<uint8_t>(1u << view);
                    for (uint16_t key : v.table.keys) {
                        if (pkey_is_empty(key)) continue;  // 0x0000, or the invalid 0x8000
                        facts_.push_back(Fact{pkey_base(key), view,
                                              pkey_is_full(key) ? kHoldsFull : kHoldsLimited,
                                              index});
                    }
                }
                model_.ports.push_back(std::move(ep));
            }
        }
    }

    void add_intent(const PartitionsConf& intent) {
        model_.intent = intent_info(intent);
        const auto view = static_cast<uint8_t>(MemberView::intent);
        for (const PartitionIntent& p : intent.partitions) {
            if (!p.pkey) {
                model_.unresolved.push_back(
                    "line " + std::to_string(p.line) + ": partition '" + p.name +
                    "' has no P_Key in the file; the SM generates one, which is not known here");
                continue;
            }
            intended_.push_back(*p.pkey);
            for (const MemberRule& rule : p.members) {
                // Without opensm's allow_both_pkeys (its default) a port the SM is told to make
                // both a full and a limited member is a full one.
                const uint8_t bits =
                    rule.membership == Membership::limited ? kHoldsLimited : kHoldsFull;
                auto add = [&](uint32_t port) {
                    facts_.push_back(Fact{*p.pkey, view, bits, port});
                };
                if (rule.set == MemberSet::port || rule.set == MemberSet::self) {
                    std::optional<uint64_t> guid =
                        rule.set == MemberSet::self ? options_.sm_port_guid : rule.guid;
                    if (!guid) {
                        // The implicit default rule's SELF is opensm's own doing, not the file's.
                        if (!p.implicit) unresolved(rule.line, "SELF: the SM's port is not known");
                        continue;
                    }
                    auto it = by_guid_.find(*guid);
                    if (it == by_guid_.end()) {
                        unresolved(rule.line, "no port has GUID " + format_guid(*guid));
                        continue;
                    }
                    add(it->second);
                    continue;
                }
                for (uint32_t i = 0; i < model_.ports.size(); ++i) {
                    if (in_set(rule.set, model_.ports[i].kind)) add(i);
                }
            }
            // opensm's own port is always a full member of the default partition.
            if (*p.pkey == kDefaultPartition && options_.sm_port_guid) {
                if (auto it = by_guid_.find(*options_.sm_port_guid); it != by_guid_.end()) {
                    facts_.push_back(Fact{kDefaultPartition, view, kHoldsFull, it->second});
                }
            }
        }
        std::sort(intended_.begin(), intended_.end());
        intended_.erase(std::unique(intended_.begin(), intended_.end()), intended_.end());
    }

    static bool in_set(MemberSet set, NodeKind kind) {
        switch (set) {
            case MemberSet::all:
                return true;
            case MemberSet::all_cas:
                return kind == NodeKind::ca;
            case MemberSet::all_switches:
                return kind == NodeKind::switch_node;
            case MemberSet::all_routers:
                return kind == NodeKind::router;
            case MemberSet::port:
            case MemberSet::self:
                break;
        }
        return false;
    }

    void unresolved(uint32_t line, const std::string& what) {
        model_.unresolved.push_back("line " + std::to_string(line) + ": " + what);
    }

    void fold() {
        std::sort(facts_.begin(), facts_.end(), [](const Fact& a, const Fact& b) {
            return a.pkey != b.pkey ? a.pkey < b.pkey : a.port < b.port;
        });
        auto intended = intended_.begin();
        auto add_empty_intended_before = [&](uint16_t pkey) {
            for (; intended != intended_.end() && *intended < pkey; ++intended) {
                Partition empty;
                empty.pkey = *intended;
                model_.partitions.push_back(std::move(empty));
            }
            if (intended != intended_.end() && *intended == pkey) ++intended;
        };
        for (size_t i = 0; i < facts_.size();) {
            const uint16_t pkey = facts_[i].pkey;
            add_empty_intended_before(pkey);
            Partition part;
            part.pkey = pkey;
            while (i < facts_.size() && facts_[i].pkey == pkey) {
                PartitionMember m;
                m.port = facts_[i].port;
                for (; i < facts_.size() && facts_[i].pkey == pkey && facts_[i].port == m.port; ++i)
                    m.holds[facts_[i].view] |= facts_[i].bits;
                uint8_t& intent = m.holds[static_cast<size_t>(MemberView::intent)];
                if (intent & kHoldsFull) intent = kHoldsFull;
                for (size_t v = 0; v < kMemberViews; ++v) {
                    if (m.holds[v] != 0) ++part.counts[v][m.holds[v] - 1];
                }
                part.members.push_back(m);
            }
            model_.partitions.push_back(std::move(part));
        }
        add_empty_intended_before(0xffff);
        facts_.clear();
        facts_.shrink_to_fit();
    }

    void name_partitions(const PartitionsConf& intent) {
        for (const PartitionIntent& p : intent.partitions) {
            if (!p.pkey) continue;
            auto it =
                std::lower_bound(model_.partitions.begin(), model_.partitions.end(), *p.pkey,
                                 [](const Partition& part, uint16_t k) { return part.pkey < k; });
            if (it == model_.partitions.end() || it->pkey != *p.pkey) continue;
            it->intended = true;
            if (it->name.empty()) it->name = p.name;
        }
    }

    const ModelOptions& options_;
    PartitionModel model_;
    std::vector<Fact> facts_;
    std::vector<uint16_t> intended_;
    std::unordered_map<uint64_t, uint32_t> by_guid_;
};

}  // namespace

PartitionModel build_partition_model(const Snapshot& snapshot, const PartitionsConf* intent,
                                     const ModelOptions& options) {
    return ModelBuilder(snapshot, options).build(intent);
}

}  // namespace rdmadiag::partitions
