#pragma once
// What the MAD engine needs from below: send one MAD through an agent, and wait a bounded time
// for the next MAD to come back. UmadTransport implements it over libibumad; tests use a fake.

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_bytes.hpp"

namespace rdmadiag::mad {

// One registered agent per management class (and SMI routing).
enum class Agent : uint8_t { smi_lid, smi_dr, pma, sa };
constexpr size_t kAgentCount = 4;

struct MadAddress {
    uint16_t dlid = 0xffff;  // 0xffff: permissive (directed route SMPs)
    uint32_t qpn = 0;        // 0 for SMPs, 1 for GMPs
    uint32_t qkey = 0;
    uint8_t sl = 0;
    bool operator==(const MadAddress&) const = default;
};

struct ReceivedMad {
    Agent agent = Agent::smi_lid;
    int status = 0;  // non-zero: the kernel gave back our own send (errno, ETIMEDOUT)
    std::vector<uint8_t> mad;
    MadAddress from{};  // the sender: where an answer to a MAD that asks for one goes
};

class MadTransport {
public:
    virtual ~MadTransport() = default;
    // Hands one MAD to the agent. `kernel_timeout_ms` lets the kernel match the response to it.
    virtual Result<void> send(Agent agent, Bytes mad, const MadAddress& addr,
                              int kernel_timeout_ms) = 0;
    // Waits up to `timeout` for one MAD; nullopt when none came.
    virtual Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) = 0;
    // A descriptor that polls readable when a MAD waits, for an event loop to watch; -1 when
    // there is none the kernel knows.
    virtual int event_fd() const { return -1; }
};

}  // namespace rdmadiag::mad
