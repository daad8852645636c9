#pragma once
// The seam between the verbs source and libibverbs. The source's logic (which devices are open,
// what an event means, when to re-read a port) runs against this interface, so it is tested with
// an injected device list and event stream; ibverbs_backend.cpp is the one implementation that
// calls ibv_get_device_list, ibv_open_device, ibv_get_async_event and ibv_ack_async_event.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::verbs {

// One entry of the device list. `identity` tells two devices of the same name apart (a device
// removed and added again between two scans): the uverbs node and the node GUID.
struct VerbsDeviceId {
    std::string name;      // rxe0, mlx5_0
    std::string identity;  // "uverbs0 085a:5fff:fe69:6bff"
    bool operator==(const VerbsDeviceId&) const = default;
};

// An ibv_async_event reduced to plain values. `number` is the port for port events, the QP, CQ,
// SRQ or WQ number for those events, and unused for DEVICE_FATAL. `type` is the raw
// ibv_event_type value, kept as an int so that codes newer than this build still pass through.
struct RawAsyncEvent {
    int type = -1;
    uint32_t number = 0;
};

// ibv_port_attr fields rdmadiag reports, as plain values.
struct VerbsPortAttributes {
    uint8_t state = 0;         // ibv_port_state (IBA PortState)
    uint8_t phys_state = 0;    // IBA PortPhysicalState
    uint8_t link_layer = 0;    // IBV_LINK_LAYER_*
    uint8_t active_width = 0;  // IBV_WIDTH_* bit
    uint8_t active_speed = 0;  // IBV_SPEED_* bit
    uint16_t lid = 0;
    uint16_t sm_lid = 0;
    uint8_t lmc = 0;
    uint32_t port_cap_flags = 0;
    uint16_t pkey_tbl_len = 0;
};

// An open device context. Destroying it closes the context; an event read but not yet acked is
// acked first, so closing never leaves the kernel waiting.
class VerbsDevice {
public:
    virtual ~VerbsDevice() = default;

    // The async event descriptor, non-blocking.
    virtual int async_fd() const = 0;
    virtual uint32_t port_count() const = 0;
    // ibv_device_attr.max_mr, when the backend read it.
    virtual std::optional<uint64_t> max_mr() const { return std::nullopt; }

    // The next pending event, or nullopt when none is waiting (EAGAIN). An error means the
    // context is no longer usable (the device was disassociated).
    virtual Result<std::optional<RawAsyncEvent>> read_event() = 0;
    // Acknowledges the event read_event() returned last.
    virtual void ack() = 0;

    virtual Result<VerbsPortAttributes> query_port(uint32_t port) = 0;
    virtual Result<uint16_t> query_pkey(uint32_t port, uint16_t index) = 0;
};

class VerbsBackend {
public:
    virtual ~VerbsBackend() = default;
    // Devices present now. An empty list is not an error.
    virtual Result<std::vector<VerbsDeviceId>> list_devices() = 0;
    virtual Result<std::unique_ptr<VerbsDevice>> open(const VerbsDeviceId& id) = 0;
};

}  // namespace rdmadiag::verbs
