#include "collector/model/rdma_enums.hpp"

#include <array>

#include "collector/model/enum_names.hpp"

namespace rdmadiag {

using detail::enum_name;
using detail::enum_parse;

namespace {

constexpr std::array<std::pair<PortState, std::string_view>, 6> kPortStates{{
    {PortState::nop, "NOP"},
    {PortState::down, "DOWN"},
    {PortState::init, "INIT"},
    {PortState::armed, "ARMED"},
    {PortState::active, "ACTIVE"},
    {PortState::active_defer, "ACTIVE_DEFER"},
}};

constexpr std::array<std::pair<LinkLayer, std::string_view>, 3> kLinkLayers{{
    {LinkLayer::unknown, "unknown"},
    {LinkLayer::infiniband, "InfiniBand"},
    {LinkLayer::ethernet, "Ethernet"},
}};

constexpr std::array<std::pair<Transport, std::string_view>, 4> kTransports{{
    {Transport::unknown, "unknown"},
    {Transport::ib, "ib"},
    {Transport::roce, "roce"},
    {Transport::iwarp, "iwarp"},
}};

constexpr std::array<std::pair<AsyncEventType, std::string_view>, 21> kEvents{{
    {AsyncEventType::cq_err, "CQ_ERR"},
    {AsyncEventType::qp_fatal, "QP_FATAL"},
    {AsyncEventType::qp_req_err, "QP_REQ_ERR"},
    {AsyncEventType::qp_access_err, "QP_ACCESS_ERR"},
    {AsyncEventType::comm_est, "COMM_EST"},
    {AsyncEventType::sq_drained, "SQ_DRAINED"},
    {AsyncEventType::path_mig, "PATH_MIG"},
    {AsyncEventType::path_mig_err, "PATH_MIG_ERR"},
    {AsyncEventType::device_fatal, "DEVICE_FATAL"},
    {AsyncEventType::port_active, "PORT_ACTIVE"},
    {AsyncEventType::port_err, "PORT_ERR"},
    {AsyncEventType::lid_change, "LID_CHANGE"},
    {AsyncEventType::pkey_change, "PKEY_CHANGE"},
    {AsyncEventType::sm_change, "SM_CHANGE"},
    {AsyncEventType::srq_err, "SRQ_ERR"},
    {AsyncEventType::srq_limit_reached, "SRQ_LIMIT_REACHED"},
    {AsyncEventType::qp_last_wqe_reached, "QP_LAST_WQE_REACHED"},
    {AsyncEventType::client_reregister, "CLIENT_REREGISTER"},
    {AsyncEventType::gid_change, "GID_CHANGE"},
    {AsyncEventType::wq_fatal, "WQ_FATAL"},
    {AsyncEventType::unknown, "UNKNOWN"},
}};

constexpr std::array<std::pair<MrOp, std::string_view>, 7> kMrOps{{
    {MrOp::alloc, "ALLOC"},
    {MrOp::reg, "REG"},
    {MrOp::fastreg, "FASTREG"},
    {MrOp::local_inv, "LOCAL_INV"},
    {MrOp::bind_mw, "BIND_MW"},
    {MrOp::send_with_inv, "SEND_WITH_INV"},
    {MrOp::dereg, "DEREG"},
}};

constexpr std::array<std::pair<WcStatus, std::string_view>, 22> kWcStatus{{
    {WcStatus::success, "SUCCESS"},
    {WcStatus::loc_len_err, "LOC_LEN_ERR"},
    {WcStatus::loc_qp_op_err, "LOC_QP_OP_ERR"},
    {WcStatus::loc_eec_op_err, "LOC_EEC_OP_ERR"},
    {WcStatus::loc_prot_err, "LOC_PROT_ERR"},
    {WcStatus::wr_flush_err, "WR_FLUSH_ERR"},
    {WcStatus::mw_bind_err, "MW_BIND_ERR"},
    {WcStatus::bad_resp_err, "BAD_RESP_ERR"},
    {WcStatus::loc_access_err, "LOC_ACCESS_ERR"},
    {WcStatus::rem_inv_req_err, "REM_INV_REQ_ERR"},
    {WcStatus::rem_access_err, "REM_ACCESS_ERR"},
    {WcStatus::rem_op_err, "REM_OP_ERR"},
    {WcStatus::retry_exc_err, "RETRY_EXC_ERR"},
    {WcStatus::rnr_retry_exc_err, "RNR_RETRY_EXC_ERR"},
    {WcStatus::loc_rdd_viol_err, "LOC_RDD_VIOL_ERR"},
    {WcStatus::rem_inv_rd_req_err, "REM_INV_RD_REQ_ERR"},
    {WcStatus::rem_abort_err, "REM_ABORT_ERR"},
    {WcStatus::inv_eecn_err, "INV_EECN_ERR"},
    {WcStatus::inv_eec_state_err, "INV_EEC_STATE_ERR"},
    {WcStatus::fatal_err, "FATAL_ERR"},
    {WcStatus::resp_timeout_err, "RESP_TIMEOUT_ERR"},
    {WcStatus::general_err, "GENERAL_ERR"},
}};

}  // namespace

std::string_view to_string(PortState s) {
    return enum_name<PortState>(kPortStates, s, "UNKNOWN");
}
std::optional<PortState> parse_port_state(std::string_view text) {
    return enum_parse<PortState>(kPortStates, text);
}
std::string_view to_string(LinkLayer l) {
    return enum_name<LinkLayer>(kLinkLayers, l, "unknown");
}
std::optional<LinkLayer> parse_link_layer(std::string_view text) {
    return enum_parse<LinkLayer>(kLinkLayers, text);
}
std::string_view to_string(Transport t) {
    return enum_name<Transport>(kTransports, t, "unknown");
}
std::optional<Transport> parse_transport(std::string_view text) {
    return enum_parse<Transport>(kTransports, text);
}
std::string_view to_string(AsyncEventType t) {
    return enum_name<AsyncEventType>(kEvents, t, "UNKNOWN");
}
std::optional<AsyncEventType> parse_async_event_type(std::string_view text) {
    return enum_parse<AsyncEventType>(kEvents, text);
}
bool is_port_event(AsyncEventType t) {
    switch (t) {
        case AsyncEventType::port_active:
        case AsyncEventType::port_err:
        case AsyncEventType::lid_change:
        case AsyncEventType::pkey_change:
        case AsyncEventType::sm_change:
        case AsyncEventType::client_reregister:
        case AsyncEventType::gid_change:
            return true;
        default:
            return false;
    }
}
std::string_view to_string(MrOp op) {
    return enum_name<MrOp>(kMrOps, op, "REG");
}
std::optional<MrOp> parse_mr_op(std::string_view text) {
    return enum_parse<MrOp>(kMrOps, text);
}
std::string_view to_string(WcStatus s) {
    return enum_name<WcStatus>(kWcStatus, s, "GENERAL_ERR");
}
std::optional<WcStatus> parse_wc_status(std::string_view text) {
    return enum_parse<WcStatus>(kWcStatus, text);
}
std::optional<WcStatus> wc_status_from_code(unsigned code) {
    if (code > static_cast<unsigned>(WcStatus::general_err)) return std::nullopt;
    return static_cast<WcStatus>(code);
}

unsigned link_width_lanes(uint8_t width_bit) {
    switch (width_bit) {
        case 1:
            return 1;
        case 2:
            return 4;
        case 4:
            return 8;
        case 8:
            return 12;
        case 16:
            return 2;
        default:
            return 0;
    }
}

}  // namespace rdmadiag
