#include "collector/probe/probe_ring_drain.hpp"

#include <algorithm>
#include <cstddef>

namespace rdmadiag::probe {

namespace {

MrOp op_of(uint8_t op) {
    switch (op) {
        case 1:
            return MrOp::fastreg;
        case 2:
            return MrOp::local_inv;
        case 3:
            return MrOp::bind_mw;
        case 4:
            return MrOp::send_with_inv;
        default:
            return MrOp::reg;
    }
}

}  // namespace

Result<std::optional<MrEvent>> mr_event_of(const rdmadiag_probe_record& r,
                                           const std::map<uint8_t, std::string>& devices,
                                           const MrOwner& owner) {
    MrEvent ev;
    if (r.device != 255) {
        auto dev = devices.find(r.device);
        if (dev == devices.end()) return make_error("record names an unknown device");
        ev.device = dev->second;
    }
    ev.mr = r.lkey;
    ev.key = r.lkey;
    ev.owner = owner;
    switch (r.kind) {
        case RDMADIAG_REC_REG:
            ev.op = MrOp::reg;
            ev.rc = r.rc;
            break;
        case RDMADIAG_REC_DEREG:
            ev.op = MrOp::dereg;
            ev.rc = r.rc;
            break;
        case RDMADIAG_REC_POST:
            ev.op = op_of(r.op);
            ev.posted = true;
            break;
        default:
            if (r.op == 0) return std::optional<MrEvent>{};  // a failed ordinary completion
            ev.op = op_of(r.op);
            ev.status = wc_status_from_code(r.status).value_or(WcStatus::general_err);
            break;
    }
    return std::optional<MrEvent>{std::move(ev)};
}

Result<void> drain_probe_client(ProbeClient& c, const ProbeLimits& limits,
                                const ProbeClockCalibration& clocks, TimePoint now,
                                sources::ObservationSink& sink, ProbeStats& stats) {
    size_t budget = limits.max_records_per_poll;
    const MrOwner owner{c.pid, c.comm};
    const bool arm = c.doorbells < limits.max_doorbells;
    for (size_t i = 0; i < c.rings.size();) {
        RingReader& ring = c.rings[i];
        const uint32_t clock = ring.clock();
        if (arm) ring.arm();
        RingDrain d = ring.drain(budget, [&](const rdmadiag_probe_record& r) {
            auto ev = mr_event_of(r, c.devices, owner);
            if (!ev) {
                ++c.invalid_records;
                ++stats.invalid_records;
                return;
            }
            if (!*ev) return;
            ++stats.records;
            sink.emit(
                Observation{clocks.record_time(r.stamp, clock, now), "probe", std::move(**ev)});
        });
        budget -= std::min(budget, d.valid);
        c.invalid_records += d.invalid;
        stats.invalid_records += d.invalid;
        if (d.more) ++stats.throttled;
        if (d.corrupt) {
            return make_error("ring " + std::to_string(ring.tid()) +
                              " claims more records than it holds");
        }
        if (c.invalid_records > limits.max_invalid_records) {
            return make_error(std::to_string(c.invalid_records) + " invalid records");
        }
        if (d.closed && !d.more) {
            c.rings.erase(c.rings.begin() + static_cast<std::ptrdiff_t>(i));
            continue;
        }
        ++i;
    }
    return {};
}

}  // namespace rdmadiag::probe
