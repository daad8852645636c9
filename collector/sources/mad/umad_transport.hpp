#pragma once
// MadTransport over libibumad: one umad port opened for its lifetime, one agent per class, and
// their release on destruction (move-only). Also what libibumad says about the local CAs.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_transport.hpp"

namespace rdmadiag::mad {

struct LocalPort {
    uint8_t port = 0;
    uint16_t lid = 0;
    uint16_t sm_lid = 0;
    uint8_t state = 0;  // IBA port state
    uint8_t phys_state = 0;
    uint64_t port_guid = 0;
    std::string link_layer;
};

struct LocalCa {
    std::string name;
    uint8_t node_type = 0;
    uint64_t node_guid = 0;
    uint64_t sys_image_guid = 0;
    std::string fw_ver;
    std::string ca_type;
    std::vector<LocalPort> ports;
};

// Calls umad_init() once per process. Fails with the reason when no umad device is there.
Result<std::vector<std::string>> local_ca_names();
Result<LocalCa> local_ca(const std::string& name);

class UmadTransport final : public MadTransport {
public:
    // Opens `ca` (empty: the first) port `port` (0: the first active) and registers the agents.
    static Result<std::unique_ptr<UmadTransport>> open(const std::string& ca, int port);
    // The same with one agent only, for a reader that sends requests of that class and takes
    // nothing unasked (the local PMA counter reader); sending through another agent fails.
    static Result<std::unique_ptr<UmadTransport>> open_one(const std::string& ca, int port,
                                                           Agent agent);
    ~UmadTransport() override;
    UmadTransport(const UmadTransport&) = delete;
    UmadTransport& operator=(const UmadTransport&) = delete;

    Result<void> send(Agent agent, Bytes mad, const MadAddress& addr,
                      int kernel_timeout_ms) override;
    Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) override;
    // The umad descriptor, when the kernel knows it (a preloaded simulator's is its own number).
    int event_fd() const override;

    // Whether the SA agent also takes the SA's unsolicited Reports (forwarded traps): the kernel
    // hands a class's unsolicited MADs of a method to at most one agent per port, so another
    // program (an SM, a daemon of its own) may hold them already. The reason when it does not.
    const Result<void>& reports() const { return reports_; }

    const std::string& ca_name() const { return ca_; }
    int port_num() const { return port_; }

private:
    UmadTransport() = default;
    static Result<std::unique_ptr<UmadTransport>> open_agents(const std::string& ca, int port,
                                                              std::optional<Agent> only);
    int fd_ = -1;
    int agents_[kAgentCount] = {-1, -1, -1, -1};
    std::string ca_;
    int port_ = 0;
    std::vector<uint8_t> send_buf_;
    std::vector<uint8_t> recv_buf_;
    Result<void> reports_;
};

}  // namespace rdmadiag::mad
