#include "collector/sources/verbs/verbs_options.hpp"

namespace rdmadiag::verbs {

namespace {

using sources::OptionSpec;
using sources::OptionType;

const OptionSpec kVerbsOptions[] = {
    {.key = "verbs.rescan_interval",
     .type = OptionType::duration,
     .help = "How often the verbs device list is read again for devices that came or went",
     .default_text = "2s"},
};

}  // namespace

std::span<const sources::OptionSpec> verbs_options() {
    return kVerbsOptions;
}

}  // namespace rdmadiag::verbs
