#pragma once
// Names of the RDMA facts observations carry: port states, link layers, transports, verbs async
// event types, MR operations and work-completion status codes. Text forms are the stable names
// used in JSON, recordings, scenarios and metrics labels.

#include <cstdint>
#include <optional>
#include <string_view>

namespace rdmadiag {

// IBA PortInfo.PortState; sysfs prints "4: ACTIVE".
enum class PortState : uint8_t {
    nop = 0,
    down = 1,
    init = 2,
    armed = 3,
    active = 4,
    active_defer = 5
};
std::string_view to_string(PortState s);
std::optional<PortState> parse_port_state(std::string_view text);

enum class LinkLayer : uint8_t { unknown, infiniband, ethernet };
std::string_view to_string(LinkLayer l);
std::optional<LinkLayer> parse_link_layer(std::string_view text);

// How an MR's invalidation rules and a port's P_Key semantics apply.
enum class Transport : uint8_t { unknown, ib, roce, iwarp };
std::string_view to_string(Transport t);
std::optional<Transport> parse_transport(std::string_view text);

// ibv_event_type, same order and names as ibv_event_type_str() without the prefix.
enum class AsyncEventType : uint8_t {
    cq_err,
    qp_fatal,
    qp_req_err,
    qp_access_err,
    comm_est,
    sq_drained,
    path_mig,
    path_mig_err,
    device_fatal,
    port_active,
    port_err,
    lid_change,
    pkey_change,
    sm_change,
    srq_err,
    srq_limit_reached,
    qp_last_wqe_reached,
    client_reregister,
    gid_change,
    wq_fatal,
    unknown,
};
std::string_view to_string(AsyncEventType t);  // "PKEY_CHANGE"
std::optional<AsyncEventType> parse_async_event_type(std::string_view text);
// Whether the event concerns a port (as opposed to a QP, CQ, SRQ, WQ or the whole device).
bool is_port_event(AsyncEventType t);

// Work requests and lifecycle operations on an MR.
enum class MrOp : uint8_t { alloc, reg, fastreg, local_inv, bind_mw, send_with_inv, dereg };
std::string_view to_string(MrOp op);  // "FASTREG"
std::optional<MrOp> parse_mr_op(std::string_view text);

// ibv_wc_status / ib_wc_status values, as the kernel's tracepoints print them.
enum class WcStatus : uint8_t {
    success = 0,
    loc_len_err = 1,
    loc_qp_op_err = 2,
    loc_eec_op_err = 3,
    loc_prot_err = 4,
    wr_flush_err = 5,
    mw_bind_err = 6,
    bad_resp_err = 7,
    loc_access_err = 8,
    rem_inv_req_err = 9,
    rem_access_err = 10,
    rem_op_err = 11,
    retry_exc_err = 12,
    rnr_retry_exc_err = 13,
    loc_rdd_viol_err = 14,
    rem_inv_rd_req_err = 15,
    rem_abort_err = 16,
    inv_eecn_err = 17,
    inv_eec_state_err = 18,
    fatal_err = 19,
    resp_timeout_err = 20,
    general_err = 21,
};
std::string_view to_string(WcStatus s);  // "WR_FLUSH_ERR"
std::optional<WcStatus> parse_wc_status(std::string_view text);
std::optional<WcStatus> wc_status_from_code(unsigned code);

// IBA LinkWidth bits (PortInfo LinkWidthActive, ibv_port_attr.active_width) as lane counts: 1X,
// 4X, 8X, 12X, 2X. 0 for anything that is not exactly one of them.
unsigned link_width_lanes(uint8_t width_bit);

}  // namespace rdmadiag
