#include "collector/sources/netdev/netdev_options.hpp"

namespace rdmadiag::netdev {

namespace {

using sources::OptionSpec;
using sources::OptionType;

const OptionSpec kNetdevOptions[] = {
    {.key = "netdev.confirm",
     .type = OptionType::duration,
     .help = "How often a port's unchanged netdev GID view is emitted again",
     .default_text = "2m"},
};

}  // namespace

std::span<const sources::OptionSpec> netdev_options() {
    return kNetdevOptions;
}

}  // namespace rdmadiag::netdev
