#pragma once
// The simulated fabric as it is at one moment: devices (present or unplugged), ports with their
// state, P_Key tables per view and raw counters, and the declared MRs. Effects change it; the
// sample functions turn it into the observations a polled source would make.

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sim/ipoib_emulation.hpp"
#include "collector/sim/scenario.hpp"
#include "collector/sim/timeline.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::sim {

class FabricState {
public:
    FabricState(const Scenario& scenario, std::string source_name);

    // Applies one effect; async and MR events are emitted to `sink` at `when`. An effect that
    // cannot apply (key not in the table, index out of range, unknown counter) changes nothing and
    // says why.
    Result<void> apply(const EffectAction& action, TimePoint when, sources::ObservationSink& sink);

    // What a poll of the fast kind reads: the device list, port states and counters.
    void sample_counters(TimePoint when, sources::ObservationSink& sink);
    // What a poll of the slow kind reads: device identities and every P_Key view of every port.
    void sample_tables(TimePoint when, sources::ObservationSink& sink);
    // One port re-read now (state and every view). Nothing for an absent device or unknown port.
    void sample_port(const PortRef& port, TimePoint when, sources::ObservationSink& sink);

    // For tests and validation.
    std::optional<uint64_t> gid_prefix(const PortRef& port, GidTarget view) const;
    const PKeyTable* table(const PortRef& port, PKeyView view) const;
    const ScenarioCounter* counter(const PortRef& port, std::string_view name) const;
    const PortStateSample* port_state(const PortRef& port) const;
    bool device_present(std::string_view device) const;

private:
    struct PortEntry {
        PortStateSample state;
        ViewMask views = kDeviceView;
        std::map<PKeyView, PKeyTable> tables;
        std::vector<ScenarioCounter> counters;
        std::vector<uint64_t> growth_carry;  // per counter, in thousandths
        std::optional<TimePoint> last_counter_sample;
        // InfiniBand ports with a port GUID: the subnet prefix each GID view holds, by GidTarget.
        std::optional<std::array<uint64_t, 3>> gid_prefixes;
        // RoCE ports with a netdev: its addresses' GIDs, and the cache's entries by index (a
        // removed one leaves a hole that the next address takes, as the kernel does).
        struct Roce {
            std::string netdev;
            std::optional<Gid> default_gid;
            std::vector<Gid> on_netdev;
            std::vector<std::optional<Gid>> cache;
        };
        std::optional<Roce> roce;
    };
    struct DeviceEntry {
        DeviceInfo info;
        bool present = true;
        bool unseen = false;  // came back since the last table sample: read it whole next poll
        std::vector<PortEntry> ports;
    };

    DeviceEntry* find_device(std::string_view name);
    const DeviceEntry* find_device(std::string_view name) const;
    PortEntry* find_port(const PortRef& port);
    const PortEntry* find_port(const PortRef& port) const;

    Result<void> apply_table(const TableEffect& effect);
    Result<void> apply_counter(const CounterStep& step);
    Result<void> apply_port(const PortStep& step);
    Result<void> apply_event(const EventStep& step, TimePoint when, sources::ObservationSink& sink);
    Result<void> apply_mr(const MrStep& step, TimePoint when, sources::ObservationSink& sink);
    Result<void> apply_device(const DeviceStep& step);
    Result<void> apply_enforcement(const EnforcementStep& step);
    Result<void> apply_gid_prefix(const GidPrefixEffect& effect);
    Result<void> apply_address(const AddressEffect& effect);
    Result<void> apply_holder_exit(const HolderExitEffect& effect, TimePoint when);
    Result<void> apply_holder_rate(const HolderRateStep& step, TimePoint when);
    // Each device with holders: its MR listing (RDMA netlink's view), the holders grown to `when`.
    void sample_mr_listings(TimePoint when, sources::ObservationSink& sink);
    void grow_holders(TimePoint when);  // the holders' rates applied up to `when`
    void grow_counters(PortEntry& port, TimePoint when);

    void emit(TimePoint when, ObservationBody body, sources::ObservationSink& sink) const;
    void emit_tables(const DeviceEntry& dev, const PortEntry& port, TimePoint when,
                     sources::ObservationSink& sink) const;

    struct Holder {
        ScenarioMrHolder declared;
        double mrs = 0;           // grows by declared.per_second
        bool owner_gone = false;  // exited, its MRs still listed
        bool gone = false;        // exited, its MRs no longer listed
    };

    std::string source_;
    std::vector<DeviceEntry> devices_;
    std::vector<ScenarioMr> mrs_;
    std::set<std::pair<std::string, uint64_t>> deregistered_;  // declared MRs, by device and id
    std::vector<Holder> holders_;
    std::map<std::string, uint64_t> max_mr_;
    std::optional<TimePoint> last_growth_;
    // The host's IPoIB interfaces, and the GID each port's interfaces send from (GID 0 at the
    // start: the subnet prefix and the port GUID).
    std::optional<IpoibEmulation> ipoib_;
    std::map<PortRef, Gid> ipoib_gids_;
};

// Applies one table operation to one view's keys; the error says why it cannot.
Result<void> apply_pkey_op(const PKeyEdit& edit, std::vector<uint16_t>& keys);

}  // namespace rdmadiag::sim
