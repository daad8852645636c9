#include "collector/model/observation.hpp"

namespace rdmadiag {

namespace {
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;
}  // namespace

std::string_view observation_kind(const ObservationBody& body) {
    return std::visit(
        Overloaded{
            [](const DeviceInfo&) { return std::string_view{"device_info"}; },
            [](const DeviceList&) { return std::string_view{"device_list"}; },
            [](const PortStateSample&) { return std::string_view{"port_state"}; },
            [](const PKeyTableSample&) { return std::string_view{"pkey_table"}; },
            [](const CounterSample&) { return std::string_view{"counter"}; },
            [](const AsyncEvent&) { return std::string_view{"async_event"}; },
            [](const MrEvent&) { return std::string_view{"mr_event"}; },
            [](const MrInventory&) { return std::string_view{"mr_inventory"}; },
            [](const SourceStatus&) { return std::string_view{"source_status"}; },
            [](const SampleError&) { return std::string_view{"sample_error"}; },
            [](const PartitionsConfText&) { return std::string_view{"partitions_conf"}; },
            [](const GidTableSample&) { return std::string_view{"gid_table"}; },
            [](const MrKernelBehaviour&) { return std::string_view{"mr_kernel"}; },
            [](const DeviceLimits&) { return std::string_view{"device_limits"}; },
            [](const ConsumerInventory&) { return std::string_view{"consumer_inventory"}; },
        },
        body);
}

}  // namespace rdmadiag
