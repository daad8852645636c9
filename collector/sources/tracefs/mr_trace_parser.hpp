#pragma once
// Turns the text of the kernel's MR trace events into MrEvents. Pure: text in, values out.
//
// rpcrdma (NFS/RDMA FRWR), current kernels:
//   xprtrdma_wc_fastreg|_wc_li|_wc_li_wake|_wc_li_done: cq.id=%u mr.id=%d status=%s (%lu/0x%x)
// and the same events in ~5.10 kernels (also seen as xprtrdma_frwr_done):
//   mr.id=%u: %s (%u/0x%x)
//   xprtrdma_frwr_alloc: mr.id=%u: rc=%d
//   xprtrdma_frwr_dereg: mr.id=%u nents=%d %u@0x%016llx:0x%08x (%s): rc=%d
// rdma_core (lifecycle of every kernel MR):
//   mr_alloc: pd.id=%u mr.id=%u type=%s max_num_sg=%u rc=%d
//   mr_integ_alloc: pd.id=%u mr.id=%u max_num_data_sg=%u max_num_meta_sg=%u rc=%d
//   mr_dereg: mr.id=%u        (mr_reg, where a kernel has it, reads like mr_dereg)
// Kernels before these name MRs by address ("mr=%p"); such lines are rejected with that reason.

#include <optional>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/model/observation.hpp"
#include "collector/sources/tracefs/ftrace_line.hpp"

namespace rdmadiag::tracefs {

struct TraceMrEvent {
    Duration timestamp{};    // trace clock
    std::string_view event;  // static storage, not a view into the line
    std::optional<uint32_t> cpu;
    MrEvent mr;
};

// Whether the event is one this parser reads (so unknown events are skipped cheaply).
bool is_mr_trace_event(std::string_view event);

// The body of one known event. `device` names the device when the caller knows it (trace
// events do not say); empty otherwise.
Result<MrEvent> parse_mr_trace_body(std::string_view event, std::string_view body,
                                    std::string_view device);

// One whole line: nullopt for headers and for events that are not MR events; an error for an
// MR event line that is truncated or garbled.
Result<std::optional<TraceMrEvent>> parse_mr_trace_line(std::string_view line,
                                                        std::string_view device = {});

// One line already split (by whichever printer's prefix it has): nullopt for events that are not
// MR events.
Result<std::optional<TraceMrEvent>> parse_mr_trace_event(const FtraceLine& line,
                                                         std::string_view device = {});

}  // namespace rdmadiag::tracefs
