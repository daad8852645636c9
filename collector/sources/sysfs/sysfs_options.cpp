#include "collector/sources/sysfs/sysfs_options.hpp"

#include "collector/sources/source_registry.hpp"

namespace rdmadiag::sysfs {

namespace {

using sources::OptionSpec;
using sources::OptionType;

// A whole-table pass more often than the head passes would make the heads pointless.
Result<void> check_full_interval(const sources::OptionValue& v, const sources::SourceSettings& s) {
    if (std::get<Duration>(v) >= s.pkey_interval) return {};
    return make_error(
        "sysfs.pkey_full_interval must be a duration no shorter than the P_Key "
        "interval (" +
            format_duration(s.pkey_interval) + ")",
        EINVAL);
}

constexpr std::string_view kCounterMethods[] = {"auto", "files"};
constexpr std::string_view kReads[] = {"auto", "held", "reopen"};

const OptionSpec kSysfsOptions[] = {
    {.key = "sysfs.counters",
     .type = OptionType::choice,
     .help = "files: read every counter from its file; auto: hw_counters/ through RDMA netlink "
             "and counters/ through the port's PMA on a mounted sysfs",
     .default_text = "auto",
     .choices = kCounterMethods},
    {.key = "sysfs.reads",
     .type = OptionType::choice,
     .help = "held: keep the files read on a schedule open between polls; reopen: open them "
             "each time; auto: held on a mounted sysfs only",
     .default_text = "auto",
     .choices = kReads},
    {.key = "sysfs.pkey_full_interval",
     .type = OptionType::duration,
     .help = "How often each P_Key table is read whole, and device identity and folder listings "
             "again (default 5m, never shorter than the P_Key interval)",
     .check = check_full_interval},
};

}  // namespace

std::span<const sources::OptionSpec> sysfs_options() {
    return kSysfsOptions;
}

}  // namespace rdmadiag::sysfs
