#include "collector/sources/netlink/rdma_nl_parser.hpp"

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cerrno>
#include <cstring>
#include <optional>

namespace rdmadiag::netlink {

namespace {

std::vector<uint8_t> request(uint32_t seq, uint16_t op, std::optional<uint32_t> device,
                             std::optional<uint32_t> port = std::nullopt) {
    std::vector<uint8_t> out(sizeof(nlmsghdr));
    if (device) put_attr_u32(out, RDMA_NLDEV_ATTR_DEV_INDEX, *device);
    if (port) put_attr_u32(out, RDMA_NLDEV_ATTR_PORT_INDEX, *port);
    nlmsghdr h{};
    h.nlmsg_len = static_cast<uint32_t>(out.size());
    h.nlmsg_type = nldev_msg_type(op);
    // One port's statistics are one answer (a "doit"), which ends with the acknowledgement asked
    // for here; everything else is a dump.
    h.nlmsg_flags = port ? NLM_F_REQUEST | NLM_F_ACK : NLM_F_REQUEST | NLM_F_DUMP;
    h.nlmsg_seq = seq;
    std::memcpy(out.data(), &h, sizeof h);
    return out;
}

}  // namespace

Result<std::vector<NlDevice>> parse_nl_device_dump(std::span<const uint8_t> bytes) {
    std::vector<NlDevice> out;
    RDMADIAG_TRY(for_each_message(
        bytes, nldev_msg_type(RDMA_NLDEV_CMD_GET), [&](const NlMessage& m) -> Result<void> {
            NlDevice d;
            bool have_index = false;
            RDMADIAG_TRY(for_each_attr(m.payload, [&](const NlAttr& at) -> Result<void> {
                if (at.type == RDMA_NLDEV_ATTR_DEV_INDEX) {
                    d.index = RDMADIAG_TRY(attr_u32(at));
                    have_index = true;
                } else if (at.type == RDMA_NLDEV_ATTR_DEV_NAME) {
                    d.name = RDMADIAG_TRY(attr_string(at));
                } else if (at.type == RDMA_NLDEV_ATTR_DEV_PROTOCOL) {
                    d.protocol = RDMADIAG_TRY(attr_string(at));
                }
                return {};
            }));
            if (!have_index || d.name.empty()) return make_error("device without index or name");
            out.push_back(std::move(d));
            return {};
        }));
    return out;
}

Result<std::vector<NlPort>> parse_nl_port_dump(std::span<const uint8_t> bytes) {
    std::vector<NlPort> out;
    RDMADIAG_TRY(for_each_message(
        bytes, nldev_msg_type(RDMA_NLDEV_CMD_PORT_GET), [&](const NlMessage& m) -> Result<void> {
            NlPort p;
            bool have_index = false;
            bool have_port = false;
            RDMADIAG_TRY(for_each_attr(m.payload, [&](const NlAttr& at) -> Result<void> {
                switch (at.type) {
                    case RDMA_NLDEV_ATTR_DEV_INDEX:
                        p.device_index = RDMADIAG_TRY(attr_u32(at));
                        have_index = true;
                        break;
                    case RDMA_NLDEV_ATTR_DEV_NAME:
                        p.device = RDMADIAG_TRY(attr_string(at));
                        break;
                    case RDMA_NLDEV_ATTR_PORT_INDEX:
                        p.port = RDMADIAG_TRY(attr_u32(at));
                        have_port = true;
                        break;
                    case RDMA_NLDEV_ATTR_NDEV_INDEX:
                        p.ndev_index = RDMADIAG_TRY(attr_u32(at));
                        break;
                    case RDMA_NLDEV_ATTR_NDEV_NAME:
                        p.ndev_name = RDMADIAG_TRY(attr_string(at));
                        break;
                    default:
                        break;
                }
                return {};
            }));
            if (!have_index || !have_port || p.device.empty())
                return make_error("port without device index, device name or port number");
            // A netdev is named by both or neither.
            if (p.ndev_index.has_value() == p.ndev_name.empty())
                return make_error("port netdev with only one of its index and name");
            out.push_back(std::move(p));
            return {};
        }));
    return out;
}

Result<MrInventory> parse_nl_mr_dump(std::span<const uint8_t> bytes, const std::string& device) {
    MrInventory inv;
    inv.device = device;
    inv.complete = true;
    auto parse_entry = [&](std::span<const uint8_t> entry) -> Result<void> {
        MrInventory::Entry e;
        bool have_mrn = false;
        RDMADIAG_TRY(for_each_attr(entry, [&](const NlAttr& a) -> Result<void> {
            switch (a.type) {
                case RDMA_NLDEV_ATTR_RES_MRN: {
                    e.mr = RDMADIAG_TRY(attr_u32(a));
                    have_mrn = true;
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_PID: {
                    e.pid = RDMADIAG_TRY(attr_u32(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_KERN_NAME: {
                    e.comm = RDMADIAG_TRY(attr_string(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_MRLEN: {
                    e.length = RDMADIAG_TRY(attr_u64(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_LKEY: {
                    e.lkey = RDMADIAG_TRY(attr_u32(a));
                    break;
                }
                case RDMA_NLDEV_ATTR_RES_RKEY: {
                    e.rkey = RDMADIAG_TRY(attr_u32(a));
                    break;
                }
                default:
                    break;
            }
            return {};
        }));
        if (!have_mrn) {
            inv.complete = false;  // an MR we cannot name: absence proves nothing now
            return {};
        }
        // A user MR is listed with its task's pid, a kernel MR with its ULP's name. Neither: the
        // kernel found the task dead (task_pid_vnr gave 0) while the MR lives on.
        e.owner_gone = !e.pid && e.comm.empty();
        inv.mrs.push_back(std::move(e));
        return {};
    };
    RDMADIAG_TRY(for_each_message(
        bytes, nldev_msg_type(RDMA_NLDEV_CMD_RES_MR_GET), [&](const NlMessage& m) -> Result<void> {
            if (m.flags & NLM_F_DUMP_INTR) inv.complete = false;
            return for_each_attr(m.payload, [&](const NlAttr& a) -> Result<void> {
                if (a.type != RDMA_NLDEV_ATTR_RES_MR) return {};
                return for_each_attr(a.data, [&](const NlAttr& entry) -> Result<void> {
                    if (entry.type != RDMA_NLDEV_ATTR_RES_MR_ENTRY) return {};
                    return parse_entry(entry.data);
                });
            });
        }));
    return inv;
}

Result<NlPortStats> parse_nl_port_stats(std::span<const uint8_t> bytes) {
    std::optional<NlPortStats> out;
    RDMADIAG_TRY(for_each_message(
        bytes, nldev_msg_type(RDMA_NLDEV_CMD_STAT_GET),
        [&](const NlMessage& m) -> Result<void> {
            if (out) return make_error("more than one statistics message in the reply");
            NlPortStats s;
            bool have_index = false;
            bool have_port = false;
            bool have_table = false;
            auto entry = [&](std::span<const uint8_t> data) -> Result<void> {
                std::optional<std::string> name;
                std::optional<uint64_t> value;
                RDMADIAG_TRY(for_each_attr(data, [&](const NlAttr& a) -> Result<void> {
                    if (a.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME) {
                        name = RDMADIAG_TRY(attr_string(a));
                    } else if (a.type == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE) {
                        value = RDMADIAG_TRY(attr_u64(a));
                    }
                    return {};
                }));
                if (!name || name->empty() || !value) {
                    return make_error("hardware counter entry without name or value");
                }
                s.counters.push_back(NlCounter{std::move(*name), *value});
                return {};
            };
            RDMADIAG_TRY(for_each_attr(m.payload, [&](const NlAttr& at) -> Result<void> {
                switch (at.type) {
                    case RDMA_NLDEV_ATTR_DEV_INDEX:
                        s.device_index = RDMADIAG_TRY(attr_u32(at));
                        have_index = true;
                        break;
                    case RDMA_NLDEV_ATTR_DEV_NAME:
                        s.device = RDMADIAG_TRY(attr_string(at));
                        break;
                    case RDMA_NLDEV_ATTR_PORT_INDEX:
                        s.port = RDMADIAG_TRY(attr_u32(at));
                        have_port = true;
                        break;
                    case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
                        have_table = true;
                        return for_each_attr(at.data, [&](const NlAttr& e) -> Result<void> {
                            if (e.type != RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY) return {};
                            return entry(e.data);
                        });
                    default:
                        break;
                }
                return {};
            }));
            if (!have_index || !have_port || !have_table) {
                return make_error("statistics without device index, port or counter table");
            }
            out = std::move(s);
            return {};
        },
        ReplyEnd::ack));
    if (!out) return make_error("reply without statistics", ENODATA);
    return std::move(*out);
}

std::vector<uint8_t> nl_port_stats_request(uint32_t seq, uint32_t device_index, uint32_t port) {
    return request(seq, RDMA_NLDEV_CMD_STAT_GET, device_index, port);
}

std::vector<uint8_t> nl_device_dump_request(uint32_t seq) {
    return request(seq, RDMA_NLDEV_CMD_GET, std::nullopt);
}

std::vector<uint8_t> nl_port_dump_request(uint32_t seq, uint32_t device_index) {
    return request(seq, RDMA_NLDEV_CMD_PORT_GET, device_index);
}

std::vector<uint8_t> nl_mr_dump_request(uint32_t seq, uint32_t device_index) {
    return request(seq, RDMA_NLDEV_CMD_RES_MR_GET, device_index);
}

std::vector<uint8_t> nl_qp_dump_request(uint32_t seq, uint32_t device_index) {
    return request(seq, RDMA_NLDEV_CMD_RES_QP_GET, device_index);
}

std::vector<uint8_t> nl_cm_id_dump_request(uint32_t seq, uint32_t device_index) {
    return request(seq, RDMA_NLDEV_CMD_RES_CM_ID_GET, device_index);
}

uint16_t nldev_msg_type(uint16_t command) {
    return static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, command));
}

}  // namespace rdmadiag::netlink
