#pragma once
// What the kernel does with an FRWR MR whose FASTREG or LOCAL_INV was flushed. xprtrdma decides
// it, and its behaviour changed in 2021 ("xprtrdma: Do not recycle MR after FastReg/LocalInv
// flushes"):
// - recovered (older kernels): the flushed MR is deregistered and re-allocated at once
//   (frwr_op_recover_mr counting mrs_recovered / mrs_orphaned, later frwr_mr_recycle with the
//   xprtrdma_mr_recycle tracepoint); an MR left unknown or stuck is a fault now.
// - destroyed (since): the flushed MR is never reused; it stays on the transport's list and is
//   destroyed when the connection is torn down, so until then it is merely awaiting teardown.
// Other FRWR users (NVMe-oF, iSER, SMB Direct, applications) are not covered by either.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace rdmadiag {

enum class FlushedMrHandling : uint8_t { not_known, recovered, destroyed };
std::string_view to_string(FlushedMrHandling h);
std::optional<FlushedMrHandling> parse_flushed_mr_handling(std::string_view text);

// The observation a source sends once it has learned it, and the snapshot's copy.
struct MrKernelBehaviour {
    FlushedMrHandling flushed_mrs = FlushedMrHandling::not_known;
    std::string kernel;  // the release, "6.1.0-18-amd64", when known
    std::string basis;   // how it was learned, in words
    bool operator==(const MrKernelBehaviour&) const = default;
};

// From a kernel release string ("5.14.0-362.el9.x86_64", "6.1.0-18-amd64"): destroyed from 5.13
// on, recovered before; not_known when the text is not a release. Distribution kernels backport,
// so the tracepoints a kernel has (see the tracefs source) are better evidence than its number.
FlushedMrHandling flushed_mr_handling_of_release(std::string_view release);

}  // namespace rdmadiag
