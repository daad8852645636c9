#include "collector/sources/consumers/consumers_options.hpp"

namespace rdmadiag::consumers {

namespace {

using sources::OptionSpec;
using sources::OptionType;

const OptionSpec kConsumersOptions[] = {
    {.key = "consumers.interval",
     .type = OptionType::duration,
     .help = "How often the consumers of every port are listed again when no link or address "
             "change says so sooner",
     .default_text = "30s",
     .min_duration = std::chrono::seconds(1)},
    {.key = "consumers.top_owners",
     .type = OptionType::integer,
     .help = "Owners named per device in the QP counts; the others are counted as \"other\"",
     .default_text = "10",
     .min = 1,
     .max = 1000},
};

}  // namespace

std::span<const sources::OptionSpec> consumers_options() {
    return kConsumersOptions;
}

}  // namespace rdmadiag::consumers
