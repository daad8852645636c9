#include "collector/sources/verbs/ibverbs_backend.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <infiniband/verbs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "collector/model/rdma_enums.hpp"

namespace rdmadiag::verbs {

// The pure mapping indexes AsyncEventType by ibv_event_type value.
static_assert(static_cast<int>(AsyncEventType::cq_err) == IBV_EVENT_CQ_ERR);
static_assert(static_cast<int>(AsyncEventType::qp_fatal) == IBV_EVENT_QP_FATAL);
static_assert(static_cast<int>(AsyncEventType::qp_req_err) == IBV_EVENT_QP_REQ_ERR);
static_assert(static_cast<int>(AsyncEventType::qp_access_err) == IBV_EVENT_QP_ACCESS_ERR);
static_assert(static_cast<int>(AsyncEventType::comm_est) == IBV_EVENT_COMM_EST);
static_assert(static_cast<int>(AsyncEventType::sq_drained) == IBV_EVENT_SQ_DRAINED);
static_assert(static_cast<int>(AsyncEventType::path_mig) == IBV_EVENT_PATH_MIG);
static_assert(static_cast<int>(AsyncEventType::path_mig_err) == IBV_EVENT_PATH_MIG_ERR);
static_assert(static_cast<int>(AsyncEventType::device_fatal) == IBV_EVENT_DEVICE_FATAL);
static_assert(static_cast<int>(AsyncEventType::port_active) == IBV_EVENT_PORT_ACTIVE);
static_assert(static_cast<int>(AsyncEventType::port_err) == IBV_EVENT_PORT_ERR);
static_assert(static_cast<int>(AsyncEventType::lid_change) == IBV_EVENT_LID_CHANGE);
static_assert(static_cast<int>(AsyncEventType::pkey_change) == IBV_EVENT_PKEY_CHANGE);
static_assert(static_cast<int>(AsyncEventType::sm_change) == IBV_EVENT_SM_CHANGE);
static_assert(static_cast<int>(AsyncEventType::srq_err) == IBV_EVENT_SRQ_ERR);
static_assert(static_cast<int>(AsyncEventType::srq_limit_reached) == IBV_EVENT_SRQ_LIMIT_REACHED);
static_assert(static_cast<int>(AsyncEventType::qp_last_wqe_reached) ==
              IBV_EVENT_QP_LAST_WQE_REACHED);
static_assert(static_cast<int>(AsyncEventType::client_reregister) == IBV_EVENT_CLIENT_REREGISTER);
static_assert(static_cast<int>(AsyncEventType::gid_change) == IBV_EVENT_GID_CHANGE);
static_assert(static_cast<int>(AsyncEventType::wq_fatal) == IBV_EVENT_WQ_FATAL);

namespace {

Error errno_error(const char* what, int err) {
    return make_error(std::string(what) + ": " + std::strerror(err), err);
}

struct DeviceListFree {
    void operator()(ibv_device** list) const { ibv_free_device_list(list); }
};
using DeviceListHandle = std::unique_ptr<ibv_device*[], DeviceListFree>;

struct ContextClose {
    void operator()(ibv_context* ctx) const { ibv_close_device(ctx); }
};
using ContextHandle = std::unique_ptr<ibv_context, ContextClose>;

struct DeviceListing {
    DeviceListHandle list;
    int count = 0;
};

Result<DeviceListing> get_device_list() {
    int count = 0;
    errno = 0;
    DeviceListing listing{DeviceListHandle(ibv_get_device_list(&count)), 0};
    if (!listing.list) return errno_error("ibv_get_device_list", errno != 0 ? errno : ENODEV);
    listing.count = count;
    return listing;
}

VerbsDeviceId device_id(ibv_device* dev) {
    const uint64_t guid = be64toh(ibv_get_device_guid(dev));
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%04x:%04x:%04x", static_cast<unsigned>(guid >> 48),
                  static_cast<unsigned>((guid >> 32) & 0xffff),
                  static_cast<unsigned>((guid >> 16) & 0xffff),
                  static_cast<unsigned>(guid & 0xffff));
    return VerbsDeviceId{ibv_get_device_name(dev), std::string(dev->dev_name) + " " + text};
}

// Element number of an event: the QP or WQ number, or the kernel handle of a CQ or SRQ (the
// only number libibverbs keeps for them).
uint32_t element_number(const ibv_async_event& ev) {
    switch (ev.event_type) {
        case IBV_EVENT_CQ_ERR:
            return ev.element.cq ? ev.element.cq->handle : 0;
        case IBV_EVENT_SRQ_ERR:
        case IBV_EVENT_SRQ_LIMIT_REACHED:
            return ev.element.srq ? ev.element.srq->handle : 0;
        case IBV_EVENT_WQ_FATAL:
            return ev.element.wq ? ev.element.wq->wq_num : 0;
        case IBV_EVENT_QP_FATAL:
        case IBV_EVENT_QP_REQ_ERR:
        case IBV_EVENT_QP_ACCESS_ERR:
        case IBV_EVENT_COMM_EST:
        case IBV_EVENT_SQ_DRAINED:
        case IBV_EVENT_PATH_MIG:
        case IBV_EVENT_PATH_MIG_ERR:
        case IBV_EVENT_QP_LAST_WQE_REACHED:
            return ev.element.qp ? ev.element.qp->qp_num : 0;
        case IBV_EVENT_DEVICE_FATAL:
            return 0;
        default:
            return static_cast<uint32_t>(ev.element.port_num);
    }
}

class IbverbsDevice final : public VerbsDevice {
public:
    IbverbsDevice(ContextHandle ctx, uint32_t ports, uint64_t max_mr)
        : ctx_(std::move(ctx)), ports_(ports), max_mr_(max_mr) {}
    ~IbverbsDevice() override { ack(); }
    IbverbsDevice(const IbverbsDevice&) = delete;
    IbverbsDevice& operator=(const IbverbsDevice&) = delete;

    int async_fd() const override { return ctx_->async_fd; }
    uint32_t port_count() const override { return ports_; }
    std::optional<uint64_t> max_mr() const override { return max_mr_; }

    Result<std::optional<RawAsyncEvent>> read_event() override {
        ack();  // never hold two
        ibv_async_event ev{};
        errno = 0;
        if (ibv_get_async_event(ctx_.get(), &ev) != 0) {
            const int err = errno;
            if (err == EAGAIN || err == EWOULDBLOCK || err == EINTR) {
                return std::optional<RawAsyncEvent>{};
            }
            return errno_error("ibv_get_async_event", err != 0 ? err : EIO);
        }
        pending_ = ev;
        return std::optional<RawAsyncEvent>{RawAsyncEvent{ev.event_type, element_number(ev)}};
    }

    void ack() override {
        if (pending_) {
            ibv_ack_async_event(&*pending_);
            pending_.reset();
        }
    }

    Result<VerbsPortAttributes> query_port(uint32_t port) override {
        ibv_port_attr attr{};
        const int rc = ibv_query_port(ctx_.get(), static_cast<uint8_t>(port), &attr);
        if (rc != 0) return errno_error("ibv_query_port", rc > 0 ? rc : errno);
        VerbsPortAttributes out;
        out.state = static_cast<uint8_t>(attr.state);
        out.phys_state = attr.phys_state;
        out.link_layer = attr.link_layer;
        out.active_width = attr.active_width;
        out.active_speed = attr.active_speed;
        out.lid = attr.lid;
        out.sm_lid = attr.sm_lid;
        out.lmc = attr.lmc;
        out.port_cap_flags = attr.port_cap_flags;
        out.pkey_tbl_len = attr.pkey_tbl_len;
        return out;
    }

    Result<uint16_t> query_pkey(uint32_t port, uint16_t index) override {
        __be16 key = 0;
        errno = 0;
        if (ibv_query_pkey(ctx_.get(), static_cast<uint8_t>(port), index, &key) != 0) {
            return errno_error("ibv_query_pkey", errno != 0 ? errno : EIO);
        }
        return static_cast<uint16_t>(ntohs(key));
    }

private:
    ContextHandle ctx_;
    uint32_t ports_;
    uint64_t max_mr_;
    std::optional<ibv_async_event> pending_;
};

class IbverbsBackend final : public VerbsBackend {
public:
    Result<std::vector<VerbsDeviceId>> list_devices() override {
        auto listing = RDMADIAG_TRY(get_device_list());
        std::vector<VerbsDeviceId> out;
        for (int i = 0; i < listing.count; ++i) out.push_back(device_id(listing.list[i]));
        return out;
    }

    Result<std::unique_ptr<VerbsDevice>> open(const VerbsDeviceId& id) override {
        auto listing = RDMADIAG_TRY(get_device_list());
        ibv_device* dev = nullptr;
        for (int i = 0; i < listing.count; ++i) {
            if (device_id(listing.list[i]) == id) dev = listing.list[i];
        }
        if (dev == nullptr) return make_error("device is gone", ENODEV);

        errno = 0;
        ContextHandle ctx(ibv_open_device(dev));
        if (!ctx) return errno_error("ibv_open_device", errno != 0 ? errno : ENODEV);
        ibv_device_attr attr{};
        if (const int rc = ibv_query_device(ctx.get(), &attr); rc != 0) {
            return errno_error("ibv_query_device", rc > 0 ? rc : errno);
        }
        const int flags = fcntl(ctx->async_fd, F_GETFL);
        if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
            return errno_error("fcntl(O_NONBLOCK) on the async fd", errno);
        }
        return std::unique_ptr<VerbsDevice>(std::make_unique<IbverbsDevice>(
            std::move(ctx), attr.phys_port_cnt, static_cast<uint64_t>(attr.max_mr)));
    }
};

}  // namespace

std::unique_ptr<VerbsBackend> make_ibverbs_backend() {
    return std::make_unique<IbverbsBackend>();
}

}  // namespace rdmadiag::verbs
