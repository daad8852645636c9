#include "collector/sources/tracefs/tracefs_options.hpp"

#include "collector/sources/tracefs/kernel_mr_behaviour.hpp"
#include "collector/sources/tracefs/tracefs_source.hpp"

namespace rdmadiag::tracefs {

namespace {

using sources::OptionSpec;
using sources::OptionType;

constexpr std::string_view kModes[] = {"once", "follow"};
constexpr std::string_view kFlushedMrs[] = {"recovered", "destroyed"};

const OptionSpec kTracefsOptions[] = {
    {.key = "tracefs.mode",
     .type = OptionType::choice,
     .help = "once: read the trace buffer and change nothing; follow: enable the MR events and "
             "read trace_pipe (a daemon)",
     .default_text = "once",
     .choices = kModes},
    {.key = "tracefs.device",
     .type = OptionType::string,
     .help = "The device trace events are about (default: the host's one RDMA device)",
     .value_name = "DEVICE"},
    {.key = "tracefs.boot_time",
     .type = OptionType::time,
     .help = "For a trace captured elsewhere: the wall time its trace clock counts from"},
    {.key = kFlushedMrsOption,
     .type = OptionType::choice,
     .help = "What the traced kernel does with flushed xprtrdma MRs, when known better than "
             "its tracepoints and release say",
     .choices = kFlushedMrs},
    {.key = kKernelOption,
     .type = OptionType::string,
     .help = "The release of the kernel a saved trace comes from",
     .value_name = "RELEASE"},
    {.key = kTraceFileOption,
     .type = OptionType::path,
     .help = "Read this saved trace (the kernel's trace file, or trace-cmd report output) "
             "instead of tracefs (--trace FILE on mrs, check and record)",
     .value_name = "FILE",
     .switches_source_on = true},
};

}  // namespace

std::span<const sources::OptionSpec> tracefs_options() {
    return kTracefsOptions;
}

}  // namespace rdmadiag::tracefs
