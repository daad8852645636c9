#pragma once
// Who on a host uses a port's P_Keys and GIDs: the consumers a P_Key or GID change hits.
//
// - An IPoIB interface sends from its port's GID 0 with one P_Key. A parent interface uses P_Key
//   index 0, whatever value the SM puts there; a child (ibX.PKEY) holds its P_Key value and the
//   index the kernel found for it (ib_find_pkey(): a full member preferred). Neither index is
//   exported, so both are inferred. Datagram mode sends on a UD QP, connected mode on RC QPs.
// - An SRP initiator host logs in with one P_Key and source GID (scsi_host pkey, sgid).
// - An RDMA CM ID is bound to a port and a source address: on RoCE the address is the GID; on
//   InfiniBand the P_Key comes from the IPoIB interface the address belongs to (AF_IB addresses
//   carry both themselves).
// - QPs are counted per port, type, state and owner: the kernel exports no P_Key index for them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/gid.hpp"
#include "collector/model/pkey_state.hpp"
#include "collector/model/port_ref.hpp"
#include "collector/model/resource_owner.hpp"

namespace rdmadiag {

enum class ConsumerKind : uint8_t { ipoib, srp, cm_id, qp };
std::string_view to_string(ConsumerKind kind);  // "ipoib", "srp", "cm_id", "qp"
std::optional<ConsumerKind> parse_consumer_kind(std::string_view text);

// How the consumer's P_Key index is known.
enum class IndexSource : uint8_t {
    none,      // not known
    inferred,  // the kernel's rule applied to the table as rdmadiag read it
    reported,  // read from the consumer itself
};
std::string_view to_string(IndexSource source);  // "none", "inferred", "reported"
std::optional<IndexSource> parse_index_source(std::string_view text);

// Who holds it: a process (pid and comm), a kernel ULP (its name), or for a kernel interface
// nobody in particular.
using ConsumerOwner = ResourceOwner;

struct Consumer {
    ConsumerKind kind = ConsumerKind::qp;
    // ipoib: the interface; srp: the SCSI host; cm_id: "cm_id N"; qp: "TYPE STATE" of the group.
    std::string name;
    std::string device;
    uint32_t port = 0;  // 0: not bound to a port (yet)
    ConsumerOwner owner;
    std::optional<uint16_t> pkey;  // with its membership bit, as the consumer holds it
    std::optional<uint16_t> pkey_index;
    IndexSource index_source = IndexSource::none;
    std::optional<Gid> gid;  // the source GID it sends from
    // The QP type it sends on: "UD" for IPoIB (both modes keep a UD QP), the QP's for CM IDs and
    // QPs.
    std::string qp_type;
    std::string mode;   // IPoIB: "datagram" or "connected"
    std::string state;  // the QP or CM state; the interface's operstate
    std::optional<bool> carrier;
    // How often an interface's carrier went up or down since it was made: the kernel's IPoIB
    // restart after a P_Key change bounces it, even between two readings.
    std::optional<uint32_t> carrier_changes;
    std::string parent;   // an IPoIB child's parent interface
    std::string address;  // a CM ID's source address; an SRP host's target (dgid)
    uint32_t count = 1;   // QPs in the group; 1 for every other kind
    bool operator==(const Consumer&) const = default;
};

// The consumers of one device's ports, as one source saw them at one refresh. `complete` is false
// when a listing was cut short or refused (what is missing then proves nothing); `notes` say what
// could not be read and why ("QP dump: permission denied").
struct ConsumerInventory {
    std::string device;
    std::vector<Consumer> consumers;
    bool complete = true;
    std::vector<std::string> notes;
    bool operator==(const ConsumerInventory&) const = default;
};

// The consumers of every device, as the engine holds them: each device's latest inventory, with
// the P_Key indexes of IPoIB interfaces inferred from the port's table as the engine read it.
struct HostConsumers {
    std::vector<ConsumerInventory> devices;  // by name
    std::vector<TimePoint> read;             // when each device's inventory came, same order
    bool operator==(const HostConsumers&) const = default;
};

// The consumers of one port that hold `pkey` (either membership), or that send from `gid`: who a
// change of that key or GID hits.
std::vector<Consumer> consumers_using_pkey(const HostConsumers& host, const PortRef& port,
                                           uint16_t pkey);
std::vector<Consumer> consumers_using_gid(const HostConsumers& host, const PortRef& port,
                                          const Gid& gid);
// The keys a table change touches: the key that left, the one that came, and the one whose index
// was reused (their consumers are hit).
std::vector<uint16_t> keys_touched(const PKeyEntryChange& change);

}  // namespace rdmadiag
