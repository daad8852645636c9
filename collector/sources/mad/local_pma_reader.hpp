#pragma once
// Reads a local InfiniBand port's counters/ through its own PMA: PortCounters and, where the
// PMA's ClassPortInfo offers it, PortCountersExtended, sent over umad to the port's own LID. Two
// MADs a port instead of one driver query per file (on mlx5 each counters/ file read is a
// firmware command). The values are the ones the files show, field by field, as the kernel's
// sysfs chooses them: the data and packet counters from PortCountersExtended when ClassPortInfo
// has the extended width (and the unicast/multicast ones unless it is the no-IETF kind), the
// rest, and everything on a PMA without it, from PortCounters; raw PMA units (data in 4-octet
// words), no scaling.
//
// Only the MADs the due counter tiers need are sent (sysfs_pma_attributes()): PortCounters holds
// the error counters of the fast tier (and port_xmit_wait, and the 32-bit data counters of a PMA
// without the extended width), PortCountersExtended only data and packet counters, of the slow
// tier; a pass over the fast tier alone is one MAD.
//
// One umad port is opened per local port on first use and held for the reader's life, with a
// PMA agent only: it takes no unsolicited MADs, so it never competes with the MAD source for the
// SA's Reports. Ports that are not active InfiniBand ports with a LID are not served (RoCE and
// iWARP ports answer PMA only through the driver); a port whose umad port cannot be opened or
// whose PMA does not answer is left to the files until retry().

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/pma_attributes.hpp"
#include "collector/sources/port_counter_reader.hpp"

namespace rdmadiag::mad {

// The values of a port's counters/ files of the `due` tiers out of PortCounters and
// PortCountersExtended attribute data (nullopt: not read), as the kernel picks them for each file,
// each with the width of its field. An attribute that holds a due counter must be given.
Result<std::vector<sources::CounterValue>> sysfs_pma_values(
    const PmaClassPortInfo& info, std::optional<Bytes> port_counters,
    std::optional<Bytes> port_counters_ext,
    sources::CounterTiers due = sources::CounterTiers::all());

// Which of the two counter attributes hold the counters/ values of the `due` tiers, for a PMA
// with this ClassPortInfo.
struct PmaAttributes {
    bool port_counters = false;
    bool port_counters_ext = false;
};
PmaAttributes sysfs_pma_attributes(const PmaClassPortInfo& info, sources::CounterTiers due);

// Whether sysfs shows the extended counters for a PMA with this ClassPortInfo.
bool sysfs_reads_extended(const PmaClassPortInfo& info);

class LocalPmaReader final : public sources::PortCounterReader {
public:
    using Opener = std::function<Result<std::unique_ptr<MadTransport>>(const std::string& device,
                                                                       uint32_t port)>;
    struct Options {
        MadEngineOptions engine{.timeout = std::chrono::milliseconds(100), .retries = 1};
        MadEngine::SteadyClock clock = [] { return std::chrono::steady_clock::now(); };
    };

    // `open` gives the transport of one local port: umad_pma_opener() (umad_transport.hpp), a
    // umad port with a PMA agent only, or a test's fabric.
    explicit LocalPmaReader(Opener open);
    LocalPmaReader(Opener open, Options options);
    ~LocalPmaReader() override;

    std::string_view method() const override { return "mad"; }
    bool applies(const sources::PortFacts& facts) const override;
    Result<std::vector<sources::CounterValue>> read(const PortRef& port,
                                                    const sources::PortFacts& facts,
                                                    sources::CounterTiers due) override;
    void retry() override;

private:
    struct Port {
        std::unique_ptr<MadTransport> transport;
        std::optional<PmaClassPortInfo> info;
        std::optional<Error> failed;
    };
    Result<std::vector<sources::CounterValue>> read_port(Port& p, const PortRef& port, uint16_t lid,
                                                         sources::CounterTiers due);

    Opener open_;
    Options options_;
    std::map<PortRef, Port> ports_;
};

}  // namespace rdmadiag::mad
