#include "collector/sources/mad/mad_sweep.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "collector/sources/mad/mad_batch.hpp"
#include "collector/sources/mad/mad_requests.hpp"
#include "collector/sources/mad/sa_records.hpp"
#include "collector/sources/mad/sweep_requests.hpp"

namespace rdmadiag::mad {

namespace {

// Port `from.second` of node `from.first` is cabled to port `arrival` of node `to`.
void link(std::vector<NodeReading>& nodes, std::pair<size_t, uint8_t> from, size_t to,
          uint8_t arrival) {
    auto port = [&nodes](size_t n, uint8_t p) -> PortReading* {
        for (PortReading& x : nodes[n].ports) {
            if (x.port == p) return &x;
        }
        return nullptr;
    };
    if (PortReading* a = port(from.first, from.second))
        a->peer = PortPeer{nodes[to].info.node_guid, arrival};
    if (PortReading* b = port(to, arrival))
        b->peer = PortPeer{nodes[from.first].info.node_guid, from.second};
}

// The discovery by directed route (MadSweeper::discover_by_dr), step by step.

// A path's way out of the last known node: that node's index and the port it left by.
using DrFrom = std::optional<std::pair<size_t, uint8_t>>;

// One hop ring of the walk: its paths, and where each left the last known node.
struct DrRing {
    std::vector<DrPath> paths;
    std::vector<DrFrom> from;
    void add(DrPath path, DrFrom f) {
        paths.push_back(std::move(path));
        from.push_back(f);
    }
};

// The nodes the walk found so far, by node GUID.
struct DrFound {
    std::vector<NodeReading> nodes;
    std::map<uint64_t, size_t> index_of;
};

using NodeInfoAnswers = std::vector<std::pair<DrPath, Result<NodeInfo>>>;
// A switch found for the first time (its index) and the path to it: its ports are walked next.
using SwitchToWalk = std::pair<size_t, DrPath>;

// NodeInfo at the end of every path, in one batch. Answers land in the slot of their path, so
// the walk's order (which path names a node found twice) does not depend on which answer came
// first.
NodeInfoAnswers ask_node_info(MadEngine& engine, const std::vector<DrPath>& paths) {
    NodeInfoAnswers found;
    found.reserve(paths.size());
    MadBatch batch;
    for (const DrPath& path : paths) {
        const size_t slot = found.size();
        found.emplace_back(path, make_error("not run"));
        batch.add(smp_request(Route{true, path, 0}, attr::node_info, 0),
                  [&found, slot](Result<std::vector<uint8_t>> r) {
                      auto answer = checked_answer(
                          std::move(r),
                          "NodeInfo at " + Route{true, found[slot].first, 0}.describe());
                      auto d = smp_payload(answer);
                      found[slot].second = d ? decode_node_info(*d) : Result<NodeInfo>(d.error());
                  });
    }
    batch.run(engine);
    return found;
}

// Takes a ring's answers into `found`: new nodes, the CA ports seen, and the link each path
// crossed. The local CA leads into the fabric through the port the MADs leave by (into `next`);
// the switches found for the first time are returned, to be walked.
std::vector<SwitchToWalk> take_answers(NodeInfoAnswers& answers, const std::vector<DrFrom>& from,
                                       DrFound& found, DrRing& next,
                                       std::vector<std::string>& errors) {
    std::vector<SwitchToWalk> to_walk;
    for (size_t slot = 0; slot < answers.size(); ++slot) {
        auto& [path, info] = answers[slot];
        if (!info) {
            errors.push_back(info.error().message);
            continue;
        }
        Route route{true, path, 0};
        auto [it, inserted] = found.index_of.try_emplace(info->node_guid, found.nodes.size());
        if (inserted) {
            NodeReading node;
            node.info = *info;
            node.route = route;
            found.nodes.push_back(std::move(node));
        }
        NodeReading& node = found.nodes[it->second];
        if (node.is_switch()) {
            if (inserted) {
                for (uint8_t p = 0; p <= node.info.num_ports; ++p) {
                    node.ports.push_back(PortReading{.port = p, .route = route});
                }
                to_walk.emplace_back(it->second, path);
            }
        } else {
            uint8_t p = info->local_port_num;
            bool known = std::any_of(node.ports.begin(), node.ports.end(),
                                     [p](const auto& x) { return x.port == p; });
            if (!known) {
                node.ports.push_back(
                    PortReading{.port = p, .route = route, .guid = info->port_guid});
            }
            if (path.empty()) next.add(DrPath{p}, std::pair{it->second, p});
        }
        if (from[slot]) link(found.nodes, *from[slot], it->second, info->local_port_num);
    }
    return to_walk;
}

// Which ports of the switches to walk have a live link: PortInfo on each, in one batch, and a
// path through each LinkUp one into `next`.
void step_through_live_links(MadEngine& engine, const DrFound& found,
                             const std::vector<SwitchToWalk>& to_walk, DrRing& next) {
    MadBatch links;
    std::vector<std::optional<DrPath>> linked;  // in request order
    std::vector<DrFrom> linked_from;
    for (const auto& [index, path] : to_walk) {
        const NodeReading& sw = found.nodes[index];
        for (uint8_t p = 1; p <= sw.info.num_ports; ++p) {
            if (!path.empty() && p == sw.info.local_port_num) continue;  // the way we came
            DrPath child = path;
            child.push_back(p);
            if (child.size() > kDrMaxHops) continue;
            const size_t slot = linked.size();
            linked.emplace_back();
            linked_from.emplace_back(std::pair{index, p});
            links.add(smp_request(Route{true, path, 0}, attr::port_info, p),
                      [&linked, slot, child](Result<std::vector<uint8_t>> r) {
                          auto answer = checked_answer(std::move(r), "PortInfo");
                          auto d = smp_payload(answer);
                          if (!d) return;
                          auto pi = decode_port_info(*d);
                          if (pi && pi->phys_state == kPhysLinkUp) linked[slot] = child;
                      });
        }
    }
    links.run(engine);
    for (size_t i = 0; i < linked.size(); ++i) {
        if (linked[i]) next.add(std::move(*linked[i]), linked_from[i]);
    }
}

}  // namespace

MadSweeper::MadSweeper(MadEngine& engine, SweepOptions options)
    : engine_(engine), options_(std::move(options)) {}

Result<std::vector<NodeReading>> MadSweeper::discover_by_sa() {
    if (options_.sm_lid == 0) return make_error("no SM LID known: the port has no SA to ask");
    MadBatch batch;
    Result<std::vector<uint8_t>> answer = make_error("not run");
    batch.add(sa_request(options_.sm_lid, Method::get_table, attr::node_record, 0, {}, 0),
              [&](Result<std::vector<uint8_t>> r) {
                  answer = checked_answer(std::move(r), "SA NodeRecord table");
              });
    batch.run(engine_);
    const auto table = RDMADIAG_TRY(std::move(answer));
    auto records = RDMADIAG_TRY(sa_records(table, kNodeRecordSize));
    std::map<uint64_t, NodeReading> by_guid;
    std::vector<uint64_t> order;
    for (Bytes bytes : records) {
        auto rec = RDMADIAG_TRY(decode_node_record(bytes));
        auto [it, inserted] = by_guid.try_emplace(rec.info.node_guid);
        NodeReading& node = it->second;
        if (inserted) {
            order.push_back(rec.info.node_guid);
            node.info = rec.info;
            node.description = rec.description;
            node.route = Route{false, {}, rec.lid};
            node.pma_lid = rec.lid;
        }
        if (node.is_switch()) {
            if (inserted) {
                for (uint8_t p = 0; p <= node.info.num_ports; ++p) {
                    node.ports.push_back(
                        PortReading{.port = p, .route = node.route, .pma_lid = rec.lid});
                }
            }
        } else {
            uint8_t p = rec.info.local_port_num;
            node.ports.push_back(PortReading{.port = p,
                                             .route = Route{false, {}, rec.lid},
                                             .pma_lid = rec.lid,
                                             .guid = rec.info.port_guid});
        }
    }
    std::vector<NodeReading> nodes;
    for (uint64_t guid : order) {
        NodeReading& n = by_guid[guid];
        std::sort(n.ports.begin(), n.ports.end(),
                  [](const auto& a, const auto& b) { return a.port < b.port; });
        nodes.push_back(std::move(n));
    }
    return nodes;
}

void MadSweeper::read_links_by_sa(std::vector<NodeReading>& nodes,
                                  std::vector<std::string>& errors) {
    MadBatch batch;
    Result<std::vector<uint8_t>> answer = make_error("not run");
    batch.add(sa_request(options_.sm_lid, Method::get_table, attr::link_record, 0, {}, 0),
              [&](Result<std::vector<uint8_t>> r) {
                  answer = checked_answer(std::move(r), "SA LinkRecord table");
              });
    batch.run(engine_);
    auto records =
        answer ? sa_records(*answer, kLinkRecordSize) : Result<std::vector<Bytes>>(answer.error());
    if (!records) {
        errors.push_back(records.error().message + " (ports have no peers this pass)");
        return;
    }
    // A link names its ends by LID: a switch's (its port 0's) and a CA or router port's own.
    std::map<uint16_t, std::pair<size_t, std::optional<uint8_t>>> by_lid;
    for (size_t n = 0; n < nodes.size(); ++n) {
        if (nodes[n].is_switch()) {
            if (nodes[n].route.lid != 0) by_lid[nodes[n].route.lid] = {n, std::nullopt};
            continue;
        }
        for (const PortReading& p : nodes[n].ports) {
            if (p.route.lid != 0) by_lid[p.route.lid] = {n, p.port};
        }
    }
    auto port_of = [&](uint16_t lid, uint8_t port) -> std::pair<NodeReading*, PortReading*> {
        auto it = by_lid.find(lid);
        if (it == by_lid.end()) return {nullptr, nullptr};
        const auto& [n, only] = it->second;
        if (only && *only != port) return {nullptr, nullptr};
        for (PortReading& p : nodes[n].ports) {
            if (p.port == port) return {&nodes[n], &p};
        }
        return {nullptr, nullptr};
    };
    for (Bytes bytes : *records) {
        auto rec = decode_link_record(bytes);
        if (!rec) continue;
        auto [from_node, from] = port_of(rec->from_lid, rec->from_port);
        auto [to_node, to] = port_of(rec->to_lid, rec->to_port);
        if (!from || !to) continue;  // an end the discovery did not list
        from->peer = PortPeer{to_node->info.node_guid, rec->to_port};
        to->peer = PortPeer{from_node->info.node_guid, rec->from_port};
    }
}

std::vector<NodeReading> MadSweeper::discover_by_dr(std::vector<std::string>& errors) {
    // Breadth first from the local node, one hop ring per batch. A CA is found once per port
    // that links to the fabric; a switch once, and its ports are walked from it. Each path but
    // the first leaves a known node by a known port: what it finds is that port's peer.
    DrFound found;
    DrRing ring;
    ring.add(DrPath{}, std::nullopt);
    for (unsigned depth = 0; !ring.paths.empty() && depth <= options_.max_hops; ++depth) {
        auto answers = ask_node_info(engine_, ring.paths);
        DrRing next;
        const auto to_walk = take_answers(answers, ring.from, found, next, errors);
        step_through_live_links(engine_, found, to_walk, next);
        ring = std::move(next);
    }
    // PMA needs a LID; PortInfo tells it later.
    return std::move(found.nodes);
}

void MadSweeper::read_nodes(std::vector<NodeReading>& nodes, SweepParts parts) {
    parts.pkeys = parts.pkeys && options_.read_pkeys;
    parts.counters = parts.counters && options_.read_counters;
    read_node_and_port_info(nodes);
    adopt_learned_lids(nodes);
    if (parts.counters) read_pma_class_port_info(nodes);
    read_tables_and_counters(nodes, parts);
}

void MadSweeper::read_node_and_port_info(std::vector<NodeReading>& nodes) {
    MadBatch round1;
    for (NodeReading& node : nodes) {
        if (!node.switch_info) add_switch_info(round1, node);
        add_node_description(round1, node);
        for (PortReading& port : node.ports) add_port_info(round1, port);
    }
    round1.run(engine_);
}

void MadSweeper::adopt_learned_lids(std::vector<NodeReading>& nodes) {
    // Directed-route discovery learns LIDs only from PortInfo.
    for (NodeReading& node : nodes) {
        for (PortReading& port : node.ports) {
            if (!port.table_reachable && port.info && port.info->lid != 0) {
                // A local port whose LID umad did not know: its own SMA is reachable at it.
                port.route = Route{false, {}, port.info->lid};
                port.table_reachable = true;
            } else if (!port.table_reachable && port.info) {
                port.errors.push_back(
                    "P_KeyTable: port has no LID and is not the opened umad port");
            }
            if (port.pma_lid == 0 && port.info) {
                port.pma_lid = node.is_switch() && !node.ports.empty() && node.ports[0].info
                                   ? node.ports[0].info->lid
                                   : port.info->lid;
            }
        }
        if (node.pma_lid == 0) {
            for (const PortReading& port : node.ports) {
                if (port.pma_lid != 0) {
                    node.pma_lid = port.pma_lid;
                    break;
                }
            }
        }
    }
}

void MadSweeper::read_pma_class_port_info(std::vector<NodeReading>& nodes) {
    // One MAD per node, in a batch of its own: the counters asked for next depend on it.
    MadBatch cpi;
    for (NodeReading& node : nodes) {
        if (!node.pma_info) add_pma_class_port_info(cpi, node);
    }
    cpi.run(engine_);
}

void MadSweeper::read_tables_and_counters(std::vector<NodeReading>& nodes, SweepParts parts) {
    MadBatch round2;
    for (NodeReading& node : nodes) {
        for (PortReading& port : node.ports) {
            if (!port.info) continue;  // an unreachable port costs only itself
            add_mlnx_ext_port_info(round2, node, port);
            if (parts.pkeys) add_pkey_blocks(round2, node, port);
            if (parts.pkeys && parts.guids) add_guid_blocks(round2, node, port);
            if (parts.counters) {
                add_port_counters(round2, node, port);
                add_port_counters_ext(round2, node, port);
            }
        }
    }
    // The SM's view rides in the same round, after every port's own blocks have sized its table.
    if (parts.pkeys && options_.sm_key && options_.sm_lid != 0) {
        for (NodeReading& node : nodes) {
            for (PortReading& port : node.ports) {
                add_sm_pkey_records(round2, node, port, options_.sm_lid, *options_.sm_key);
                if (parts.guids)
                    add_sm_gid_records(round2, node, port, options_.sm_lid, *options_.sm_key);
            }
        }
    }
    round2.run(engine_);
}

SubnetReading MadSweeper::sweep_subnet(SweepParts parts) {
    SubnetReading reading;
    auto by_sa = discover_by_sa();
    if (by_sa) {
        reading.discovery = "sa";
        reading.nodes = std::move(*by_sa);
        read_links_by_sa(reading.nodes, reading.errors);
    } else {
        reading.errors.push_back("SA discovery failed (" + by_sa.error().message +
                                 "); walking the subnet by directed route");
        reading.discovery = "directed-route";
        reading.nodes = discover_by_dr(reading.errors);
    }
    std::erase_if(reading.nodes,
                  [&](const NodeReading& n) { return !options_.shard.owns(n.info.node_guid); });
    read_nodes(reading.nodes, parts);
    return reading;
}

SubnetReading MadSweeper::sweep_known(std::vector<NodeReading> topology, SweepParts parts) {
    SubnetReading reading;
    reading.discovery = "known";
    reading.nodes = std::move(topology);
    read_nodes(reading.nodes, parts);
    return reading;
}

std::vector<NodeReading> topology_of(const SubnetReading& reading) {
    std::vector<NodeReading> nodes;
    nodes.reserve(reading.nodes.size());
    for (const NodeReading& read : reading.nodes) {
        NodeReading node;
        node.info = read.info;
        node.description = read.description;
        node.route = read.route;
        node.pma_lid = read.pma_lid;
        node.switch_info = read.switch_info;
        node.pma_info = read.pma_info;
        node.ports.reserve(read.ports.size());
        for (const PortReading& p : read.ports) {
            PortReading kept{.port = p.port,
                             .route = p.route,
                             .pma_lid = p.pma_lid,
                             .guid = p.guid,
                             .table_reachable = p.table_reachable,
                             .peer = p.peer};
            kept.link_up_before =
                p.info ? std::optional<bool>(p.info->phys_state == kPhysLinkUp) : p.link_up_before;
            node.ports.push_back(std::move(kept));
        }
        nodes.push_back(std::move(node));
    }
    return nodes;
}

SubnetReading MadSweeper::sweep_local(const std::vector<LocalPortPlan>& ports) {
    SubnetReading reading;
    reading.discovery = "local";
    NodeReading node;
    Route local{true, {}, 0};
    MadBatch batch;
    Result<NodeInfo> info = make_error("not read");
    batch.add(smp_request(local, attr::node_info, 0), [&info](auto r) {
        auto answer = checked_answer(std::move(r), "local NodeInfo");
        auto d = smp_payload(answer);
        info = d ? decode_node_info(*d) : Result<NodeInfo>(d.error());
    });
    batch.run(engine_);
    if (!info) {
        reading.errors.push_back(info.error().message);
        return reading;
    }
    node.info = *info;
    node.route = local;
    for (const LocalPortPlan& plan : ports) {
        PortReading port;
        port.port = plan.port;
        port.pma_lid = plan.lid;
        if (plan.opened) {
            port.route = local;  // 0 hops: the SMA answers for the port the SMP arrived on
            port.guid = info->port_guid;
        } else if (plan.lid != 0) {
            port.route = Route{false, {}, plan.lid};
        } else {
            // Its PortInfo still comes through the local SMA; its P_Key table cannot.
            port.route = local;
            port.table_reachable = false;
        }
        node.ports.push_back(std::move(port));
    }
    // Ports umad did not list (a simulator's view of one port) still belong to the node.
    for (uint8_t p = 1; p <= node.info.num_ports; ++p) {
        bool listed = std::any_of(node.ports.begin(), node.ports.end(),
                                  [p](const PortReading& x) { return x.port == p; });
        if (listed) continue;
        PortReading port;
        port.port = p;
        port.route = local;
        port.table_reachable = false;
        node.ports.push_back(std::move(port));
    }
    reading.nodes.push_back(std::move(node));
    read_nodes(reading.nodes, SweepParts{.guids = true});
    return reading;
}

bool links_changed(const SubnetReading& reading) {
    for (const NodeReading& node : reading.nodes) {
        for (const PortReading& p : node.ports) {
            if (p.info && p.link_up_before &&
                (p.info->phys_state == kPhysLinkUp) != *p.link_up_before)
                return true;
        }
    }
    return false;
}

}  // namespace rdmadiag::mad
