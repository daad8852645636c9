#include "collector/probe/probe_options.hpp"

#include "collector/sources/source_registry.hpp"

namespace rdmadiag::probe {

namespace {

using sources::OptionSpec;
using sources::OptionType;

// A client that may connect may write to the collector's rings' owner: others never may.
Result<void> check_mode(const sources::OptionValue& v, const sources::SourceSettings&) {
    if (std::get<uint64_t>(v) & 0002)
        return make_error("probe.socket_mode: others may not write (connect)");
    return {};
}

const OptionSpec kProbeOptions[] = {
    {.key = "probe.socket",
     .type = OptionType::path,
     .help = "The unix socket applications linked with librdmadiag_probe connect to",
     .value_name = "PATH",
     .default_text = "/run/rdmadiag/probe.sock"},
    {.key = "probe.socket_mode",
     .type = OptionType::integer,
     .help = "The socket's mode, never writable by others",
     .default_text = "0660",
     .max = 0777,
     .base = 8,
     .check = check_mode},
    {.key = "probe.socket_group",
     .type = OptionType::string,
     // Whether the group exists is this host's state, not the value's: a missing group puts the
     // probe source down with the reason, as a socket in use does.
     .help = "The socket's group (default the collector's own)",
     .value_name = "GROUP"},
};

}  // namespace

std::span<const sources::OptionSpec> probe_options() {
    return kProbeOptions;
}

}  // namespace rdmadiag::probe
