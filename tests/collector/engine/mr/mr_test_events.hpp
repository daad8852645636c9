#pragma once
// Builders for MR observations in engine tests.

#include "collector/model/observation.hpp"

namespace rdmadiag::test {

inline MrEvent mr_event(uint64_t mr, MrOp op, WcStatus status = WcStatus::success,
                        const char* device = "rxe0") {
    MrEvent e;
    e.device = device;
    e.mr = mr;
    e.op = op;
    e.status = status;
    e.owner.name = "xprtrdma";
    return e;
}

inline MrEvent mr_lifecycle(uint64_t mr, MrOp op, int rc = 0, const char* device = "rxe0") {
    MrEvent e = mr_event(mr, op, WcStatus::success, device);
    e.rc = rc;
    return e;
}

inline MrInventory mr_listing(const char* device, std::vector<uint64_t> ids, bool complete = true) {
    MrInventory inv;
    inv.device = device;
    inv.complete = complete;
    for (auto id : ids) {
        MrInventory::Entry e;
        e.mr = id;
        inv.mrs.push_back(e);
    }
    return inv;
}

}  // namespace rdmadiag::test
