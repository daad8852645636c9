#include "collector/sources/tracefs/kernel_mr_behaviour.hpp"

#include <filesystem>
#include <fstream>

namespace rdmadiag::tracefs {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kRecycleEvents[] = {"xprtrdma_mr_recycle", "xprtrdma_recover_mr"};

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
    return s;
}

MrKernelBehaviour by_release(std::string_view release, std::string_view where) {
    MrKernelBehaviour b;
    b.kernel = std::string(release);
    b.flushed_mrs = flushed_mr_handling_of_release(release);
    switch (b.flushed_mrs) {
        case FlushedMrHandling::destroyed:
            b.basis = "Linux " + b.kernel + ", 5.13 or later (" + std::string(where) + ")";
            break;
        case FlushedMrHandling::recovered:
            b.basis = "Linux " + b.kernel + ", before 5.13 (" + std::string(where) + ")";
            break;
        case FlushedMrHandling::not_known:
            b.basis = "kernel release \"" + b.kernel + "\" not understood";
            break;
    }
    return b;
}

}  // namespace

std::optional<MrKernelBehaviour> mr_behaviour_from_option(const sources::OptionValues& options) {
    const auto given = options.text(kFlushedMrsOption);
    if (!given) return std::nullopt;
    MrKernelBehaviour b;
    b.flushed_mrs = parse_flushed_mr_handling(*given).value_or(FlushedMrHandling::not_known);
    b.basis = std::string("given by ") + kFlushedMrsOption;
    b.kernel = options.text(kKernelOption).value_or("");
    return b;
}

bool is_recycle_event_line(std::string_view line) {
    for (auto name : kRecycleEvents) {
        const size_t at = line.find(name);
        // The event name is followed by its colon in both printed forms.
        if (at != std::string_view::npos && at + name.size() < line.size() &&
            line[at + name.size()] == ':')
            return true;
    }
    return false;
}

MrKernelBehaviour mr_behaviour_from_kernel(bool has_rpcrdma, bool has_recycle,
                                           std::string_view release) {
    if (!has_rpcrdma) {
        if (release.empty()) {
            MrKernelBehaviour b;
            b.basis = "no rpcrdma tracepoints and no kernel release to judge by";
            return b;
        }
        return by_release(release, "rpcrdma not loaded");
    }
    MrKernelBehaviour b;
    b.kernel = std::string(release);
    if (has_recycle) {
        b.flushed_mrs = FlushedMrHandling::recovered;
        b.basis = "the kernel has the xprtrdma_mr_recycle tracepoint";
    } else {
        b.flushed_mrs = FlushedMrHandling::destroyed;
        b.basis = "the kernel's rpcrdma tracepoints have no xprtrdma_mr_recycle";
    }
    return b;
}

MrKernelBehaviour live_mr_behaviour(const std::string& tracefs_root,
                                    const std::string& procfs_root) {
    // No procfs: the tracefs tree is not this host's (a fixture), and neither is its release.
    std::error_code ec;
    const std::string events = tracefs_root + "/events/rpcrdma";
    const bool has_rpcrdma = fs::is_directory(events, ec);
    bool has_recycle = false;
    for (auto name : kRecycleEvents) {
        has_recycle = has_recycle || fs::exists(events + "/" + std::string(name), ec);
    }
    std::string release;
    if (!procfs_root.empty()) {
        std::ifstream in(procfs_root + "/sys/kernel/osrelease");
        if (in) std::getline(in, release);
    }
    return mr_behaviour_from_kernel(has_rpcrdma, has_recycle, trimmed(release));
}

MrKernelBehaviour saved_trace_mr_behaviour(bool saw_recycle, std::string_view release) {
    if (saw_recycle) {
        MrKernelBehaviour b;
        b.kernel = std::string(release);
        b.flushed_mrs = FlushedMrHandling::recovered;
        b.basis = "the trace holds xprtrdma_mr_recycle events";
        return b;
    }
    if (!release.empty()) return by_release(release, kKernelOption);
    MrKernelBehaviour b;
    b.basis = std::string("the trace does not say: give ") + kKernelOption + "=RELEASE or " +
              kFlushedMrsOption;
    return b;
}

}  // namespace rdmadiag::tracefs
