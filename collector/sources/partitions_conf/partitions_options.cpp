#include "collector/sources/partitions_conf/partitions_options.hpp"

#include "collector/sources/partitions_conf/partitions_conf_source.hpp"

namespace rdmadiag::partitions_conf {

namespace {

using sources::OptionSpec;
using sources::OptionType;

const OptionSpec kPartitionsOptions[] = {
    {.key = kConfOption,
     .type = OptionType::path,
     .help = "The SM's partitions.conf (opensm's grammar): ports' P_Key tables are judged "
             "against it (partition.* findings); looked at every --interval.pkeys, read again "
             "when it changes",
     .value_name = "FILE",
     .switches_source_on = true},
    {.key = kSmPortGuidOption,
     .type = OptionType::guid,
     .help = "The SM's port GUID, whom partitions.conf's SELF names",
     .min = 1,
     .alias = "partitions.sm-port-guid"},
};

}  // namespace

std::span<const sources::OptionSpec> partitions_options() {
    return kPartitionsOptions;
}

}  // namespace rdmadiag::partitions_conf
