#pragma once
// A subnet played by a transport: every MAD is answered at once from plain node and port data
// (NodeInfo, NodeDescription, SwitchInfo, PortInfo, P_KeyTable, GUIDInfo, PMA counters, SA
// NodeRecord, PKeyTableRecord, PortInfoRecord and GUIDInfoRecord), or lost when its (LID,
// attribute) is in `drop`. Its SA takes InformInfo subscriptions and, when a test calls
// forward_trap(), sends the Report of a Notice the way an SA forwards a trap; ReportResps sent back
// are kept. The sweep tests build a three-node fabric by hand; fat_tree() builds one of any size
// for the scale tests and the benchmark.

#include <chrono>
#include <cstdint>
#include <deque>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collector/sources/mad/inform_info.hpp"
#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/pma_attributes.hpp"
#include "collector/sources/mad/smp_attributes.hpp"

namespace rdmadiag::mad::test {

struct FakePort {
    uint16_t lid = 0;  // CA ports; a switch's LID is on port 0
    int peer_node = -1;
    uint8_t peer_port = 0;
    std::vector<uint16_t> pkeys;
    std::vector<uint16_t> sm_pkeys;  // what the SM says it programmed
    uint8_t rcv_constraint = 0;
    // PortInfo PartitionEnforcementInbound/Outbound of a switch's external port.
    bool enforce_inbound = false;
    bool enforce_outbound = false;
    // GUIDInfo: PortInfo.GUIDCap (0: the port answers no GUIDInfo), and the alias GUIDs from
    // index 1 as the port holds them and as the SM says it assigned them. Index 0 is the port
    // GUID, as NodeInfo gives it.
    uint8_t guid_cap = 0;
    std::vector<uint64_t> alias_guids{};
    std::vector<uint64_t> sm_alias_guids{};
};

struct FakeNode {
    uint64_t guid = 0;
    uint8_t type = 1;
    uint16_t partition_cap = 64;
    uint16_t enforcement_cap = 32;
    std::string desc;
    std::vector<FakePort> ports;  // index = port number; [0] used by switches
};

class FakeFabric final : public MadTransport {
public:
    std::vector<FakeNode> nodes;
    bool sa = true;
    uint64_t sm_key = 0x1;
    uint16_t sm_lid = 1;
    uint64_t gid_prefix = 0xfe80000000000000ull;     // every port's PortInfo.GidPrefix
    uint64_t sm_gid_prefix = 0xfe80000000000000ull;  // the SA's PortInfoRecords'
    std::vector<uint32_t> guid_info_modifiers;       // every GUIDInfo modifier asked for
    std::set<std::pair<uint16_t, uint16_t>> drop;    // (lid, attr)
    std::chrono::steady_clock::time_point now{};
    std::vector<uint32_t> pkey_modifiers;   // every P_KeyTable modifier asked for
    bool sa_takes_subscriptions = true;     // false: InformInfo answered with Subscribe=0
    bool sa_answers_links = true;           // false: LinkRecord queries get no answer
    std::vector<InformInfo> subscriptions;  // every InformInfo Set, in order
    std::vector<std::vector<uint8_t>> report_responses;

    // The SA sends a Report(Notice) with this TID to the port MADs leave through.
    void forward_trap(Bytes notice, uint64_t tid) {
        std::vector<uint8_t> r(256, 0);
        r[0] = 1, r[1] = 0x03, r[2] = 2, r[3] = 0x06;
        put64(r, 8, tid);
        put16(r, 16, attr::notice);
        std::copy(notice.begin(), notice.end(), r.begin() + 56);
        queue_.push_back({Agent::sa, 0, std::move(r), MadAddress{sm_lid, 1, kGsiQkey, 0}});
    }

    Result<void> send(Agent agent, Bytes mad, const MadAddress& addr, int) override {
        if (agent == Agent::sa && mad[3] == static_cast<uint8_t>(Method::report_response)) {
            report_responses.emplace_back(mad.begin(), mad.end());
            return {};
        }
        std::vector<uint8_t> r(mad.begin(), mad.end());
        r.resize(256);
        r[3] = static_cast<uint8_t>(r[3] | 0x80);
        uint16_t attr_id = get16(mad, 16);
        uint32_t mod = get32(mad, 20);
        if (drop.count({addr.dlid, attr_id})) return {};
        switch (agent) {
            case Agent::smi_lid: {
                auto [n, arrival] = by_lid(addr.dlid);
                if (n < 0) return {};
                answer_smp(r, n, arrival, attr_id, mod);
                break;
            }
            case Agent::smi_dr: {
                int n = 0;
                uint8_t arrival = 1;
                uint8_t hops = mad[7];
                for (uint8_t i = 1; i <= hops; ++i) {
                    const FakePort& out = nodes[n].ports.at(mad[128 + i]);
                    if (out.peer_node < 0) return {};  // no link: lost
                    arrival = out.peer_port;
                    n = out.peer_node;
                }
                r[4] = 0x80;  // D bit on the way back
                answer_smp(r, n, arrival, attr_id, mod);
                break;
            }
            case Agent::pma: {
                auto [n, arrival] = by_lid(addr.dlid);
                if (n < 0) return {};
                (void)arrival;
                std::span<uint8_t> d(r.data() + 64, 192);
                if (attr_id == attr::class_port_info) {
                    put16(d, 2, kPmaXmitWait);
                } else if (attr_id == attr::port_counters) {
                    uint8_t p = mad[64 + 1];
                    d[1] = p;
                    d[17] = nodes[n].ports.at(p).rcv_constraint;
                    put32(d, 24, 1000u + p);
                }
                break;
            }
            case Agent::sa:
                if (!sa || addr.dlid != sm_lid) return {};
                if (!answer_sa(r, mad)) return {};
                break;
        }
        queue_.push_back({agent, 0, std::move(r)});
        return {};
    }
    Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) override {
        if (queue_.empty()) {
            now += timeout;
            return std::optional<ReceivedMad>{};
        }
        auto m = std::move(queue_.front());
        queue_.pop_front();
        return std::optional<ReceivedMad>{std::move(m)};
    }

private:
    // Node and port of a LID. The index is rebuilt when the node list grew or shrank (tests set
    // the fabric up before the first MAD and do not renumber it).
    std::pair<int, uint8_t> by_lid(uint16_t lid) {
        if (lid == 0) return {-1, 0};
        if (indexed_nodes_ != nodes.size()) {
            lid_index_.clear();
            for (size_t n = 0; n < nodes.size(); ++n) {
                for (size_t p = 0; p < nodes[n].ports.size(); ++p) {
                    const uint16_t l = nodes[n].ports[p].lid;
                    if (l != 0)
                        lid_index_.try_emplace(l, static_cast<int>(n), static_cast<uint8_t>(p));
                }
            }
            indexed_nodes_ = nodes.size();
        }
        auto it = lid_index_.find(lid);
        return it == lid_index_.end() ? std::pair<int, uint8_t>{-1, 0} : it->second;
    }
    void node_info(std::span<uint8_t> d, const FakeNode& node, uint8_t arrival) const {
        d[0] = 1, d[1] = 1, d[2] = node.type;
        d[3] = static_cast<uint8_t>(node.ports.size() - 1);
        put64(d, 4, node.guid);
        put64(d, 12, node.guid);
        put64(d, 20, node.guid + arrival);
        put16(d, 28, node.partition_cap);
        d[36] = arrival;
    }
    void answer_smp(std::vector<uint8_t>& r, int n, uint8_t arrival, uint16_t attr_id,
                    uint32_t mod) {
        const FakeNode& node = nodes[n];
        std::span<uint8_t> d(r.data() + 64, 64);
        bool is_switch = node.type == 2;
        switch (attr_id) {
            case attr::node_info:
                node_info(d, node, arrival);
                break;
            case attr::node_description:
                std::copy(node.desc.begin(), node.desc.end(), d.begin());
                break;
            case attr::switch_info:
                put16(d, 14, node.enforcement_cap);
                break;
            case attr::port_info: {
                uint8_t p = static_cast<uint8_t>(mod == 0 ? arrival : mod);
                const FakePort& port = node.ports.at(p);
                put16(d, 16, is_switch ? node.ports[0].lid : port.lid);
                put16(d, 18, sm_lid);
                bool up = p == 0 || port.peer_node >= 0;
                d[32] = up ? 4 : 1;
                d[33] = static_cast<uint8_t>((up ? 5 : 2) << 4);
                d[31] = 2;                             // 4X
                d[35] = static_cast<uint8_t>(4 << 4);  // QDR, overridden by
                d[62] = static_cast<uint8_t>(2 << 4);  // EDR
                d[28] = p;
                d[43] = static_cast<uint8_t>((port.enforce_inbound ? 0x08 : 0) |
                                             (port.enforce_outbound ? 0x04 : 0));
                if (!is_switch || p == 0) {
                    put64(d, 8, gid_prefix);
                    d[50] = port.guid_cap;
                }
                break;
            }
            case attr::guid_info: {
                guid_info_modifiers.push_back(mod);
                const uint8_t p = is_switch ? 0 : arrival;
                guid_block(d, node, p, node.ports.at(p).alias_guids, static_cast<uint16_t>(mod));
                break;
            }
            case attr::pkey_table: {
                pkey_modifiers.push_back(mod);
                uint8_t p = is_switch ? static_cast<uint8_t>(mod >> 16) : arrival;
                uint16_t block = mod & 0xffff;
                const auto& keys = node.ports.at(p).pkeys;
                for (size_t i = 0; i < 32 && block * 32 + i < keys.size(); ++i)
                    put16(d, 2 * i, keys[block * 32 + i]);
                break;
            }
            default:
                r[5] = 0x0c;
                break;
        }
    }
    // GUIDInfo block `block` of port `p`: index 0 the port GUID (NodeInfo's for the port; a
    // switch's port 0 has the node GUID), then `aliases` from index 1, up to the port's GUIDCap.
    void guid_block(std::span<uint8_t> d, const FakeNode& node, uint8_t p,
                    const std::vector<uint64_t>& aliases, uint16_t block) const {
        const uint8_t cap = node.ports.at(p).guid_cap;
        for (size_t i = 0; i < 8; ++i) {
            const size_t index = block * size_t{8} + i;
            if (index >= cap) break;
            uint64_t guid = 0;
            if (index == 0) {
                guid = node.guid + p;
            } else if (index - 1 < aliases.size()) {
                guid = aliases[index - 1];
            }
            put64(d, 8 * i, guid);
        }
    }
    bool answer_sa(std::vector<uint8_t>& r, Bytes mad) {
        uint16_t attr_id = get16(mad, 16);
        if (attr_id == attr::node_record) {
            std::vector<std::vector<uint8_t>> recs;
            for (const FakeNode& node : nodes) {
                for (uint8_t p = 0; p < node.ports.size(); ++p) {
                    bool listed = node.type == 2 ? p == 0 : node.ports[p].lid != 0;
                    if (!listed) continue;
                    std::vector<uint8_t> rec(112, 0);
                    put16(rec, 0, node.ports[p].lid);
                    node_info(std::span<uint8_t>(rec.data() + 4, 40), node, p);
                    std::copy(node.desc.begin(), node.desc.end(), rec.begin() + 44);
                    recs.push_back(rec);
                }
            }
            // As the kernel hands over a reassembled RMPP answer: one buffer, every record.
            r.resize(56);
            put16(r, 44, 14);
            for (auto& rec : recs) r.insert(r.end(), rec.begin(), rec.end());
            return true;
        }
        if (attr_id == attr::link_record) {
            if (!sa_answers_links) return false;
            // One record per direction of every link, ends named by LID as the SA names them.
            auto lid_of = [this](int n, uint8_t p) {
                return nodes[n].type == 2 ? nodes[n].ports[0].lid : nodes[n].ports[p].lid;
            };
            r.resize(56);
            put16(r, 44, 1);
            for (size_t n = 0; n < nodes.size(); ++n) {
                for (size_t p = 1; p < nodes[n].ports.size(); ++p) {
                    const FakePort& port = nodes[n].ports[p];
                    if (port.peer_node < 0) continue;
                    std::vector<uint8_t> rec(8, 0);
                    put16(rec, 0, lid_of(static_cast<int>(n), static_cast<uint8_t>(p)));
                    rec[2] = static_cast<uint8_t>(p);
                    rec[3] = port.peer_port;
                    put16(rec, 4, lid_of(port.peer_node, port.peer_port));
                    r.insert(r.end(), rec.begin(), rec.end());
                }
            }
            return true;
        }
        if (attr_id == attr::inform_info) {
            auto info = decode_inform_info(mad.subspan(56));
            if (!info) return false;
            subscriptions.push_back(*info);
            r[3] = static_cast<uint8_t>(Method::get_response);  // a Set is answered by GetResp
            if (!sa_takes_subscriptions) r[56 + 23] = 0;
            return true;
        }
        if (attr_id == attr::port_info_record || attr_id == attr::guid_info_record) {
            const uint16_t lid = get16(mad, 56);
            auto [n, arrival] = by_lid(lid);
            if (n < 0) return false;
            const FakeNode& node = nodes[n];
            const uint8_t p = node.type == 2 ? 0 : arrival;
            std::span<uint8_t> rec(r.data() + 56, 72);
            std::fill(rec.begin(), rec.end(), 0);
            put16(r, 44, 9);
            put16(rec, 0, lid);
            if (attr_id == attr::port_info_record) {
                rec[2] = p;
                put64(rec, 4 + 8, sm_gid_prefix);
                put16(rec, 4 + 16, lid);
                rec[4 + 50] = node.ports.at(p).guid_cap;
                return true;
            }
            const uint8_t block = mad[58];
            if (block * 8 >= node.ports.at(p).guid_cap) {
                r[4] = 0x03, r[5] = 0x00;  // ERR_NO_RECORDS
                return true;
            }
            rec[2] = block;
            guid_block(rec.subspan(8, 64), node, p, node.ports.at(p).sm_alias_guids, block);
            return true;
        }
        if (attr_id == attr::pkey_table_record) {
            if (get64(mad, 36) != sm_key) {
                r[4] = 0x00, r[5] = 0x1c;  // untrusted request: refused
                return true;
            }
            uint16_t lid = get16(mad, 56), block = get16(mad, 58);
            uint8_t port = mad[60];
            auto [n, arrival] = by_lid(lid);
            if (n < 0) return false;
            uint8_t p = nodes[n].type == 2 ? port : arrival;
            put16(r, 44, 9);
            std::span<uint8_t> rec(r.data() + 56, 72);
            std::fill(rec.begin(), rec.end(), 0);
            put16(rec, 0, lid), put16(rec, 2, block), rec[4] = p;
            const auto& keys = nodes[n].ports.at(p).sm_pkeys;
            for (size_t i = 0; i < 32 && block * 32 + i < keys.size(); ++i)
                put16(rec, 8 + 2 * i, keys[block * 32 + i]);
            return true;
        }
        return false;
    }
    std::deque<ReceivedMad> queue_;
    std::unordered_map<uint16_t, std::pair<int, uint8_t>> lid_index_;
    size_t indexed_nodes_ = 0;
};

struct FatTreeShape {
    unsigned leaves = 4;
    unsigned spines = 2;
    unsigned hosts_per_leaf = 4;
    unsigned hca_ports = 2;  // every port of a host on its leaf, as a rail-less cluster cables it
};

// A two-level fat tree: every leaf has one link to every spine. LIDs: switches first, then HCA
// ports. MADs leave from the first host's port 1 (node index `leaves + spines`).
FakeFabric fat_tree(const FatTreeShape& shape);

// Ports of the fabric as the sweep counts them: every switch port (0 included) and CA port.
size_t port_count(const FakeFabric& fabric);

}  // namespace rdmadiag::mad::test
