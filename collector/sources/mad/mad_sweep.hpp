#pragma once
// Reads a subnet (or this host's CA) over MADs in a few batches, each with every MAD of that
// round in flight at once: discovery (SA NodeRecords, or a directed-route walk when no SA
// answers), then SwitchInfo/ClassPortInfo/PortInfo, then P_Key blocks, PMA counters and the SA's
// PKeyTableRecords. Whatever does not answer is recorded on its port and the sweep goes on.

#include <cstdint>
#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/subnet_reading.hpp"

namespace rdmadiag::mad {

struct SweepOptions {
    uint16_t sm_lid = 0;             // where SA queries go; 0: no SA, walk by directed route
    std::optional<uint64_t> sm_key;  // set: read the SM's view (PKeyTableRecord)
    bool read_counters = true;
    bool read_pkeys = true;
    unsigned max_hops = 16;  // directed-route walk depth
};

struct LocalPortPlan {
    uint8_t port = 0;
    uint16_t lid = 0;
    bool opened = false;  // the umad port the MADs leave through
};

class MadSweeper {
public:
    MadSweeper(MadEngine& engine, SweepOptions options);

    // Every node of the subnet: SA discovery, or directed route when the SA does not answer.
    SubnetReading sweep_subnet();
    // Only the local node: ports reached at their LID, the opened port by a 0-hop directed route.
    SubnetReading sweep_local(const std::vector<LocalPortPlan>& ports);

    // Discovery steps, exposed so tests can drive each one.
    Result<std::vector<NodeReading>> discover_by_sa();
    std::vector<NodeReading> discover_by_dr(std::vector<std::string>& errors);
    void read_nodes(std::vector<NodeReading>& nodes, std::vector<std::string>& errors);

private:
    // read_nodes' steps, in order; each round is one batch (sweep_requests.hpp: what it asks).
    void read_node_and_port_info(std::vector<NodeReading>& nodes);
    void adopt_learned_lids(std::vector<NodeReading>& nodes);
    void read_pma_class_port_info(std::vector<NodeReading>& nodes);
    void read_tables_and_counters(std::vector<NodeReading>& nodes);

    MadEngine& engine_;
    SweepOptions options_;
};

}  // namespace rdmadiag::mad
