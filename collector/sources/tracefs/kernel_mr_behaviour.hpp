#pragma once
// Learns what the traced kernel does with flushed xprtrdma MRs (collector/model/mr_kernel.hpp),
// best evidence first:
// 1. the option tracefs.flushed_mrs=recovered|destroyed (an administrator who knows);
// 2. the rpcrdma tracepoints: xprtrdma_mr_recycle (or its older name xprtrdma_recover_mr) exists
//    only on kernels that recover flushed MRs at once; the change that destroys them at teardown
//    removed it. In a saved trace, an event of that name proves the same;
// 3. the kernel release (live: <procfs>/sys/kernel/osrelease; a saved trace: the option
//    tracefs.kernel=RELEASE), destroyed from 5.13 on. Distribution kernels backport, hence last.
// Functions take what was read, never open files, except live_mr_behaviour(), which reads the
// tracefs events folder and osrelease under the roots it is given.

#include <optional>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/model/mr_kernel.hpp"
#include "collector/sources/source_options.hpp"

namespace rdmadiag::tracefs {

inline constexpr const char* kFlushedMrsOption = "tracefs.flushed_mrs";
inline constexpr const char* kKernelOption = "tracefs.kernel";

// The tracefs.flushed_mrs option, when given.
std::optional<MrKernelBehaviour> mr_behaviour_from_option(const sources::OptionValues& options);

// Whether a trace line is an event that only recovering kernels emit.
bool is_recycle_event_line(std::string_view line);

// From the tracepoints a kernel has (`has_rpcrdma`: events/rpcrdma exists; `has_recycle`: the
// recycle event does) and its release, which may be empty.
MrKernelBehaviour mr_behaviour_from_kernel(bool has_rpcrdma, bool has_recycle,
                                           std::string_view release);

// The running kernel's, read under the tracefs and procfs roots; an empty procfs root leaves the
// release out (a tracefs tree that is not this host's).
MrKernelBehaviour live_mr_behaviour(const std::string& tracefs_root,
                                    const std::string& procfs_root);

// A saved trace's: whether recycle events were seen in it, and the tracefs.kernel option.
MrKernelBehaviour saved_trace_mr_behaviour(bool saw_recycle, std::string_view release);

}  // namespace rdmadiag::tracefs
