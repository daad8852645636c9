#pragma once
// Reads a subnet (or this host's CA) over MADs in a few batches, each with every MAD of that
// round in flight at once: discovery (SA NodeRecords, or a directed-route walk when no SA
// answers), then SwitchInfo/ClassPortInfo/PortInfo, then P_Key blocks, PMA counters and the SA's
// PKeyTableRecords (locally also GUIDInfo and the SA's records of the port's GIDs). Whatever does
// not answer is recorded on its port and the sweep goes on.

#include <cstdint>
#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/subnet_reading.hpp"
#include "collector/sources/mad/sweep_shard.hpp"

namespace rdmadiag::mad {

struct SweepOptions {
    uint16_t sm_lid = 0;             // where SA queries go; 0: no SA, walk by directed route
    std::optional<uint64_t> sm_key;  // set: read the SM's view (PKeyTableRecord)
    bool read_counters = true;
    bool read_pkeys = true;
    unsigned max_hops = 16;  // directed-route walk depth
    SweepShard shard;        // sweep_subnet reads only the nodes of this part
};

// What one pass reads on top of PortInfo (which every pass reads: state, LIDs and the
// P_Key/Q_Key/M_Key violation counters). At subnet scope tables and counters have schedules of
// their own, and discovery a third.
struct SweepParts {
    bool pkeys = true;
    bool counters = true;
    // With the P_Key tables: the alias GUIDs (GUIDInfo) of every port with GIDs, and with an
    // SM_Key the SA's PortInfoRecord and GUIDInfoRecords for them. GID 0 needs neither
    // (PortInfo.GidPrefix and the port GUID): the local scope reads them, a subnet pass does not.
    bool guids = false;
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
    SubnetReading sweep_subnet(SweepParts parts = {});
    // The nodes an earlier sweep found (topology_of its reading), read again without
    // rediscovering them: routes, SwitchInfo, descriptions and PMA ClassPortInfo carry over.
    SubnetReading sweep_known(std::vector<NodeReading> topology, SweepParts parts);
    // Only the local node: ports reached at their LID, the opened port by a 0-hop directed route.
    SubnetReading sweep_local(const std::vector<LocalPortPlan>& ports);

    // Discovery steps, exposed so tests can drive each one.
    Result<std::vector<NodeReading>> discover_by_sa();
    // Each port's peer from the SA's LinkRecords (the walk finds them on its own). A table that
    // cannot be read is an error in `errors`; the nodes stay as they are, without peers.
    void read_links_by_sa(std::vector<NodeReading>& nodes, std::vector<std::string>& errors);
    std::vector<NodeReading> discover_by_dr(std::vector<std::string>& errors);
    void read_nodes(std::vector<NodeReading>& nodes, SweepParts parts = {});

private:
    // read_nodes' steps, in order; each round is one batch (sweep_requests.hpp: what it asks).
    void read_node_and_port_info(std::vector<NodeReading>& nodes);
    void adopt_learned_lids(std::vector<NodeReading>& nodes);
    void read_pma_class_port_info(std::vector<NodeReading>& nodes);
    void read_tables_and_counters(std::vector<NodeReading>& nodes, SweepParts parts);

    MadEngine& engine_;
    SweepOptions options_;
};

// What a reading knows of the subnet's shape, without what was read from each port: the nodes,
// their routes and LIDs, SwitchInfo, descriptions and PMA ClassPortInfo, and whether each port's
// link was up.
std::vector<NodeReading> topology_of(const SubnetReading& reading);

// Whether a pass over a known topology saw the subnet's shape change: a port whose link came up
// (something new may be behind it) or went down (something may have left).
bool links_changed(const SubnetReading& reading);

}  // namespace rdmadiag::mad
