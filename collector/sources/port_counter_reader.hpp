#pragma once
// A cheaper way to read one port's counters than a sysfs file each: the whole of hw_counters/ in
// one RDMA netlink message, the whole of counters/ in one local PMA MAD or two. The sysfs source
// asks a reader for a port's values and reads from the files whatever the reader did not give, so
// names, widths and values are the files' whichever way they were read. Readers live beside the
// source of their kind (netlink/, mad/) and are handed to the sysfs source by the registry, so no
// source folder depends on another.
//
// The counter tiers (counter_tiers.hpp) decide which counters a pass reads; a reader decides how:
// it is told the due tiers and spends no query on a counter that is not due.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/model/port_ref.hpp"
#include "collector/model/rdma_enums.hpp"
#include "collector/sources/counter_tiers.hpp"

namespace rdmadiag::sources {

// What the sysfs source knows of a port when it reads its counters (read the same poll).
struct PortFacts {
    std::optional<PortState> state;
    std::optional<LinkLayer> link_layer;
    std::optional<uint32_t> lid;
};

struct CounterValue {
    std::string name;  // the sysfs file name
    uint64_t value = 0;
    // The width of the field it was read from, where the method knows it (the PMA's 32-bit
    // PortCounters or 64-bit PortCountersExtended data counters); 0 where it does not (netlink).
    uint8_t width = 0;
    bool operator==(const CounterValue&) const = default;
};

class PortCounterReader {
public:
    virtual ~PortCounterReader() = default;

    // How it reads, in a word for status lines and figures: "netlink", "mad".
    virtual std::string_view method() const = 0;

    // Whether the method can ever serve a port like this one (the local PMA serves InfiniBand
    // ports only). A port it does not apply to is read from the files without asking.
    virtual bool applies(const PortFacts& facts) const {
        (void)facts;
        return true;
    }

    // The port's values now, or why not: the caller then reads the files. At least the counters
    // of the `due` tiers; a counter of another tier may come along when the same query gives it
    // (the caller drops it), but no query is made for it alone. A reader that failed on a port may
    // leave it to the files until retry().
    virtual Result<std::vector<CounterValue>> read(const PortRef& port, const PortFacts& facts,
                                                   CounterTiers due) = 0;

    // The slow cadence came round: ports given up on, and devices not found, may be tried again.
    virtual void retry() {}
};

}  // namespace rdmadiag::sources
