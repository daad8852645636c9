#include "collector/sources/mad/mad_sweep.hpp"

#include <functional>
#include <map>
#include <set>

#include "collector/sources/mad/sa_records.hpp"

namespace rdmadiag::mad {

namespace {

// A batch of MADs and what to do with each answer; run() sends them all at once.
class Batch {
public:
    using Handler = std::function<void(Result<std::vector<uint8_t>>)>;
    void add(MadRequest req, Handler handler) {
        requests_.push_back(std::move(req));
        handlers_.push_back(std::move(handler));
    }
    void run(MadEngine& engine) {
        if (requests_.empty()) return;
        auto outcomes = engine.run(std::move(requests_));
        for (size_t i = 0; i < outcomes.size(); ++i) handlers_[i](std::move(outcomes[i].response));
        requests_.clear();
        handlers_.clear();
    }

private:
    std::vector<MadRequest> requests_;
    std::vector<Handler> handlers_;
};

MadRequest smp_request(const Route& route, uint16_t attr_id, uint32_t attr_mod) {
    MadRequest req;
    req.target = route.describe();
    SmpRequest smp{Method::get, attr_id, attr_mod, 0};
    if (route.dr) {
        // Paths are checked when they are built; a too-long one never gets here.
        req.mad = build_dr_smp(smp, route.path, 0).value_or({});
        req.agent = Agent::smi_dr;
        req.addr = MadAddress{0xffff, 0, 0, 0};
    } else {
        req.mad = build_lid_smp(smp, 0);
        req.agent = Agent::smi_lid;
        req.addr = MadAddress{route.lid, 0, 0, 0};
    }
    return req;
}

MadRequest pma_request(uint16_t lid, uint16_t attr_id, uint8_t port_select) {
    MadRequest req;
    req.target = "lid " + std::to_string(lid);
    auto payload = port_select_payload(port_select);
    req.mad = build_pma_get(attr_id, 0, payload, 0);
    req.agent = Agent::pma;
    req.addr = MadAddress{lid, 1, kGsiQkey, 0};
    return req;
}

MadRequest sa_request(uint16_t sm_lid, Method method, uint16_t attr_id, uint64_t mask, Bytes templ,
                      uint64_t sm_key) {
    MadRequest req;
    req.target = "sa lid " + std::to_string(sm_lid);
    req.mad = build_sa_query(method, attr_id, mask, templ, sm_key, 0);
    req.agent = Agent::sa;
    req.addr = MadAddress{sm_lid, 1, kGsiQkey, 0};
    return req;
}

// Answer -> checked response bytes, with the step named in the error.
Result<std::vector<uint8_t>> checked(Result<std::vector<uint8_t>> r, const std::string& what) {
    if (!r) return make_error(what + ": " + r.error().message, r.error().code);
    if (auto h = check_response(*r); !h) return make_error(what + ": " + h.error().message);
    return r;
}

// The returned span points into `r`: keep the answer alive while it is used.
Result<Bytes> smp_payload(const Result<std::vector<uint8_t>>& r) {
    if (!r) return r.error();
    return smp_data(*r);
}
Result<Bytes> smp_payload(Result<std::vector<uint8_t>>&& r) = delete;

uint16_t pkey_table_size(const NodeReading& node, uint8_t port, std::string& why) {
    if (!node.is_switch() || port == 0) return node.info.partition_cap;
    if (!node.switch_info) {
        why = "SwitchInfo was not read, so the external ports' P_Key table size is unknown";
        return 0;
    }
    return node.switch_info->partition_enforcement_cap;
}

}  // namespace

MadSweeper::MadSweeper(MadEngine& engine, SweepOptions options)
    : engine_(engine), options_(std::move(options)) {}

Result<std::vector<NodeReading>> MadSweeper::discover_by_sa() {
    if (options_.sm_lid == 0) return make_error("no SM LID known: the port has no SA to ask");
    Batch batch;
    Result<std::vector<uint8_t>> answer = make_error("not run");
    batch.add(sa_request(options_.sm_lid, Method::get_table, attr::node_record, 0, {}, 0),
              [&](Result<std::vector<uint8_t>> r) {
                  answer = checked(std::move(r), "SA NodeRecord table");
              });
    batch.run(engine_);
    if (!answer) return answer.error();
    auto records = sa_records(*answer, kNodeRecordSize);
    if (!records) return records.error();
    std::map<uint64_t, NodeReading> by_guid;
    std::vector<uint64_t> order;
    for (Bytes bytes : *records) {
        auto rec = decode_node_record(bytes);
        if (!rec) return rec.error();
        auto [it, inserted] = by_guid.try_emplace(rec->info.node_guid);
        NodeReading& node = it->second;
        if (inserted) {
            order.push_back(rec->info.node_guid);
            node.info = rec->info;
            node.description = rec->description;
            node.route = Route{false, {}, rec->lid};
            node.pma_lid = rec->lid;
        }
        if (node.is_switch()) {
            if (inserted) {
                for (uint8_t p = 0; p <= node.info.num_ports; ++p) {
                    node.ports.push_back(
                        PortReading{.port = p, .route = node.route, .pma_lid = rec->lid});
                }
            }
        } else {
            uint8_t p = rec->info.local_port_num;
            node.ports.push_back(
                PortReading{.port = p, .route = Route{false, {}, rec->lid}, .pma_lid = rec->lid});
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

std::vector<NodeReading> MadSweeper::discover_by_dr(std::vector<std::string>& errors) {
    // Breadth first from the local node, one hop ring per batch. A CA is found once per port
    // that links to the fabric; a switch once, and its ports are walked from it.
    std::vector<NodeReading> nodes;
    std::map<uint64_t, size_t> index_of;
    std::vector<DrPath> ring{DrPath{}};
    std::set<uint64_t> walked;
    for (unsigned depth = 0; !ring.empty() && depth <= options_.max_hops; ++depth) {
        std::vector<std::pair<DrPath, Result<NodeInfo>>> found;
        Batch batch;
        for (const DrPath& path : ring) {
            batch.add(smp_request(Route{true, path, 0}, attr::node_info, 0),
                      [&found, path](Result<std::vector<uint8_t>> r) {
                          auto checked_answer = checked(
                              std::move(r), "NodeInfo at " + Route{true, path, 0}.describe());
                          auto d = smp_payload(checked_answer);
                          found.emplace_back(
                              path, d ? decode_node_info(*d) : Result<NodeInfo>(d.error()));
                      });
        }
        batch.run(engine_);
        std::vector<DrPath> next;
        std::vector<std::pair<size_t, DrPath>> to_walk;  // switch index, path
        for (auto& [path, info] : found) {
            if (!info) {
                errors.push_back(info.error().message);
                continue;
            }
            Route route{true, path, 0};
            auto [it, inserted] = index_of.try_emplace(info->node_guid, nodes.size());
            if (inserted) {
                NodeReading node;
                node.info = *info;
                node.route = route;
                nodes.push_back(std::move(node));
            }
            NodeReading& node = nodes[it->second];
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
                if (!known) node.ports.push_back(PortReading{.port = p, .route = route});
                // The local CA leads into the fabric through the port the MADs leave by.
                if (path.empty()) next.push_back(DrPath{p});
            }
        }
        // Which switch ports have a live link: PortInfo on each, then step through the LinkUp ones.
        Batch links;
        for (auto& [index, path] : to_walk) {
            const NodeReading& sw = nodes[index];
            for (uint8_t p = 1; p <= sw.info.num_ports; ++p) {
                if (!path.empty() && p == sw.info.local_port_num) continue;  // the way we came
                DrPath child = path;
                child.push_back(p);
                if (child.size() > kDrMaxHops) continue;
                links.add(smp_request(Route{true, path, 0}, attr::port_info, p),
                          [&next, child](Result<std::vector<uint8_t>> r) {
                              auto checked_answer = checked(std::move(r), "PortInfo");
                              auto d = smp_payload(checked_answer);
                              if (!d) return;
                              auto pi = decode_port_info(*d);
                              if (pi && pi->phys_state == 5) next.push_back(child);
                          });
            }
        }
        links.run(engine_);
        ring = std::move(next);
    }
    // PMA needs a LID; PortInfo tells it later.
    return nodes;
}

void MadSweeper::read_nodes(std::vector<NodeReading>& nodes, std::vector<std::string>& errors) {
    // Round 1: SwitchInfo, PMA ClassPortInfo and every port's PortInfo.
    Batch round1;
    for (NodeReading& node : nodes) {
        if (node.is_switch()) {
            round1.add(smp_request(node.route, attr::switch_info, 0), [&node](auto r) {
                auto checked_answer = checked(std::move(r), "SwitchInfo");
                auto d = smp_payload(checked_answer);
                if (!d) return node.errors.push_back(d.error().message);
                auto s = decode_switch_info(*d);
                if (!s) return node.errors.push_back("SwitchInfo: " + s.error().message);
                node.switch_info = *s;
            });
        }
        if (node.description.empty()) {
            round1.add(smp_request(node.route, attr::node_description, 0), [&node](auto r) {
                auto checked_answer = checked(std::move(r), "NodeDescription");
                auto d = smp_payload(checked_answer);
                if (!d) return node.errors.push_back(d.error().message);
                node.description = decode_node_description(*d).value_or("");
            });
        }
        for (PortReading& port : node.ports) {
            round1.add(smp_request(port.route, attr::port_info, port.port), [&port](auto r) {
                auto checked_answer = checked(std::move(r), "PortInfo");
                auto d = smp_payload(checked_answer);
                if (!d) return port.errors.push_back(d.error().message);
                auto pi = decode_port_info(*d);
                if (!pi) return port.errors.push_back("PortInfo: " + pi.error().message);
                port.info = *pi;
            });
        }
    }
    round1.run(engine_);
    // Directed-route discovery learns LIDs only now.
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
    if (options_.read_counters) {
        Batch cpi;
        for (NodeReading& node : nodes) {
            if (node.pma_lid == 0) continue;
            cpi.add(pma_request(node.pma_lid, attr::class_port_info, 0), [&node](auto r) {
                auto c = checked(std::move(r), "PMA ClassPortInfo");
                if (!c) return node.errors.push_back(c.error().message);
                auto d = pma_data(*c);
                if (!d) return node.errors.push_back(d.error().message);
                auto info = decode_pma_class_port_info(*d);
                if (info) node.pma_info = *info;
            });
        }
        // ClassPortInfo rides with round 1's tail: it is one MAD per node.
        cpi.run(engine_);
    }

    // Round 2: P_Key blocks, PMA counters, and the SM's P_Key records.
    Batch round2;
    for (NodeReading& node : nodes) {
        for (PortReading& port : node.ports) {
            if (!port.info) continue;  // an unreachable port costs only itself
            if (options_.read_pkeys && port.table_reachable) {
                std::string why;
                uint16_t size = pkey_table_size(node, port.port, why);
                if (!why.empty()) {
                    port.errors.push_back(why);
                } else {
                    port.sma_pkeys = std::vector<uint16_t>(size, 0);
                    uint8_t sw_port = node.is_switch() ? port.port : 0;
                    for (uint16_t block = 0; block < pkey_blocks(size); ++block) {
                        round2.add(
                            smp_request(port.route, attr::pkey_table,
                                        pkey_table_modifier(block, sw_port)),
                            [&port, block, size](auto r) {
                                auto checked_answer = checked(
                                    std::move(r), "P_KeyTable block " + std::to_string(block));
                                auto d = smp_payload(checked_answer);
                                Result<std::vector<uint16_t>> keys =
                                    d ? decode_pkey_block(*d)
                                      : Result<std::vector<uint16_t>>(d.error());
                                for (size_t i = 0; i < kPKeyBlockSize; ++i) {
                                    size_t index = block * kPKeyBlockSize + i;
                                    if (index >= size) break;
                                    if (keys) {
                                        (*port.sma_pkeys)[index] = (*keys)[i];
                                    } else {
                                        port.sma_unreadable.push_back(static_cast<uint16_t>(index));
                                    }
                                }
                                if (!keys) port.errors.push_back(keys.error().message);
                            });
                    }
                }
            }
            bool has_pma = port.pma_lid != 0 && !(node.is_switch() && port.port == 0);
            if (options_.read_counters && has_pma) {
                bool xmit_wait = !node.pma_info || (node.pma_info->capability_mask & kPmaXmitWait);
                round2.add(pma_request(port.pma_lid, attr::port_counters, port.port), [&port,
                                                                                       xmit_wait](
                                                                                          auto r) {
                    auto c = checked(std::move(r), "PortCounters");
                    if (!c) return port.errors.push_back(c.error().message);
                    auto d = pma_data(*c);
                    if (!d) return port.errors.push_back(d.error().message);
                    auto counters = decode_port_counters(*d, xmit_wait);
                    if (!counters)
                        return port.errors.push_back("PortCounters: " + counters.error().message);
                    for (auto& c32 : *counters) {
                        // 64-bit PortCountersExtended values, when read, win over these.
                        bool have = std::any_of(port.counters.begin(), port.counters.end(),
                                                [&](const auto& x) { return x.name == c32.name; });
                        if (!have) port.counters.push_back(c32);
                    }
                });
                if (node.pma_info && has_port_counters_ext(*node.pma_info)) {
                    bool no_ietf = !(node.pma_info->capability_mask & kPmaExtendedWidth);
                    round2.add(pma_request(port.pma_lid, attr::port_counters_ext, port.port),
                               [&port, no_ietf](auto r) {
                                   auto c = checked(std::move(r), "PortCountersExtended");
                                   if (!c) return port.errors.push_back(c.error().message);
                                   auto d = pma_data(*c);
                                   if (!d) return port.errors.push_back(d.error().message);
                                   auto counters = decode_port_counters_ext(*d, no_ietf);
                                   if (!counters)
                                       return port.errors.push_back(counters.error().message);
                                   for (auto& c64 : *counters) {
                                       std::erase_if(port.counters, [&](const auto& x) {
                                           return x.name == c64.name;
                                       });
                                       port.counters.push_back(c64);
                                   }
                               });
                }
            }
        }
    }
    // The SM's view: one SA Get per P_Key block of each port, each answer fits one MAD.
    if (options_.read_pkeys && options_.sm_key && options_.sm_lid != 0) {
        for (NodeReading& node : nodes) {
            for (PortReading& port : node.ports) {
                if (!port.info || !port.sma_pkeys) continue;
                uint16_t lid = node.is_switch() ? node.lid() : port.info->lid;
                if (lid == 0) continue;
                size_t size = port.sma_pkeys->size();
                port.sm_pkeys = std::vector<uint16_t>(size, 0);
                for (uint16_t block = 0; block < pkey_blocks(static_cast<uint16_t>(size));
                     ++block) {
                    auto templ = pkey_table_record_template(lid, block, port.port);
                    round2.add(sa_request(options_.sm_lid, Method::get, attr::pkey_table_record,
                                          kPKeyRecLid | kPKeyRecBlock | kPKeyRecPort, templ,
                                          *options_.sm_key),
                               [&port, block, size](auto r) {
                                   auto c = checked(std::move(r), "SA PKeyTableRecord block " +
                                                                      std::to_string(block));
                                   Result<PKeyTableRecord> rec = make_error("no record");
                                   if (c) {
                                       auto recs = sa_records(*c, kPKeyTableRecordSize);
                                       if (!recs) {
                                           rec = recs.error();
                                       } else if (recs->empty()) {
                                           rec = make_error("SA PKeyTableRecord block " +
                                                            std::to_string(block) + ": no record");
                                       } else {
                                           rec = decode_pkey_table_record(recs->front());
                                       }
                                   } else {
                                       rec = c.error();
                                   }
                                   if (!rec) {
                                       port.sm_pkeys.reset();  // a partial intent is no intent
                                       port.errors.push_back(rec.error().message);
                                       return;
                                   }
                                   if (!port.sm_pkeys) return;
                                   for (size_t i = 0; i < kPKeyBlockSize; ++i) {
                                       size_t index = block * kPKeyBlockSize + i;
                                       if (index < size) (*port.sm_pkeys)[index] = rec->keys[i];
                                   }
                               });
                }
            }
        }
    }
    round2.run(engine_);
    (void)errors;
}

SubnetReading MadSweeper::sweep_subnet() {
    SubnetReading reading;
    auto by_sa = discover_by_sa();
    if (by_sa) {
        reading.discovery = "sa";
        reading.nodes = std::move(*by_sa);
    } else {
        reading.errors.push_back("SA discovery failed (" + by_sa.error().message +
                                 "); walking the subnet by directed route");
        reading.discovery = "directed-route";
        reading.nodes = discover_by_dr(reading.errors);
    }
    read_nodes(reading.nodes, reading.errors);
    return reading;
}

SubnetReading MadSweeper::sweep_local(const std::vector<LocalPortPlan>& ports) {
    SubnetReading reading;
    reading.discovery = "local";
    NodeReading node;
    Route local{true, {}, 0};
    Batch batch;
    Result<NodeInfo> info = make_error("not read");
    batch.add(smp_request(local, attr::node_info, 0), [&info](auto r) {
        auto checked_answer = checked(std::move(r), "local NodeInfo");
        auto d = smp_payload(checked_answer);
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
    read_nodes(reading.nodes, reading.errors);
    return reading;
}

}  // namespace rdmadiag::mad
