#pragma once
// The IPoIB interfaces of a simulated host, and what the kernel's IPoIB does with them on a
// P_Key change (drivers/infiniband/ulp/ipoib/: the PKEY_CHANGE event queues a heavy flush). When
// the event reaches a port:
// - a parent interface takes the key index 0 now holds; if it changed, it restarts;
// - a child looks its key up again (ib_find_pkey(): a full member first); a new index restarts it
//   (its carrier goes down and up), a key that left takes its carrier down, one that came back
//   brings it up.
// A lost event changes nothing: the interfaces keep the index they had. The interfaces are listed
// as the consumers source lists them, one ConsumerInventory per device.

#include <functional>
#include <optional>
#include <vector>

#include "collector/model/consumer.hpp"
#include "collector/model/pkey.hpp"
#include "collector/sim/scenario.hpp"

namespace rdmadiag::sim {

class IpoibEmulation {
public:
    using TableOf = std::function<const PKeyTable*(const PortRef&)>;

    IpoibEmulation(const std::vector<ScenarioIpoib>& declared, const TableOf& device_table);

    bool empty() const { return interfaces_.empty(); }
    // PKEY_CHANGE reached `port`, whose device table is now `table`.
    void on_pkey_change(const PortRef& port, const PKeyTable& table);
    // Whether the interfaces changed since the last call.
    bool take_changed();
    // Each device's interfaces, as consumers. `gid_of`: the GID a port's interfaces send from.
    std::vector<ConsumerInventory> inventories(
        const std::function<std::optional<Gid>(const PortRef&)>& gid_of) const;

private:
    struct Interface {
        ScenarioIpoib declared;
        uint16_t pkey = 0;  // a parent: the key at index 0 when it last looked
        std::optional<uint16_t> index;
        bool carrier = false;
        uint32_t carrier_changes = 0;
    };
    // What the interface finds in `table` (index and key), as the kernel looks it up.
    static void look_up(Interface& i, const PKeyTable& table);

    std::vector<Interface> interfaces_;
    bool changed_ = true;
};

}  // namespace rdmadiag::sim
