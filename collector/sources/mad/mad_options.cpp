#include "collector/sources/mad/mad_options.hpp"

#include "collector/sources/mad/sweep_shard.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::mad {

namespace {

using sources::OptionSpec;
using sources::OptionType;
using sources::OptionValue;
using sources::SourceSettings;

bool subnet_scope(const SourceSettings& s) {
    return s.options.text("mad.scope").value_or("local") == "subnet";
}

Result<void> check_shard(const OptionValue& v, const SourceSettings& s) {
    const auto shard = RDMADIAG_TRY(parse_sweep_shard(std::get<std::string>(v)));
    if (!subnet_scope(s) && shard.count > 1)
        return make_error("mad.shard splits a subnet: it needs mad.scope=subnet");
    return {};
}

Result<void> check_traps(const OptionValue& v, const SourceSettings& s) {
    if (std::get<bool>(v) && !subnet_scope(s))
        return make_error("mad.traps acts at subnet scope: it needs mad.scope=subnet");
    return {};
}

constexpr std::string_view kScopes[] = {"local", "subnet"};

const OptionSpec kMadOptions[] = {
    {.key = "mad.scope",
     .type = OptionType::choice,
     .help = "This host's CA only, or every node of the subnet",
     .default_text = "local",
     .choices = kScopes},
    {.key = "mad.ca",
     .type = OptionType::string,
     .help = "The umad CA MADs leave through (default: the first with an active port)",
     .value_name = "CA"},
    {.key = "mad.port",
     .type = OptionType::integer,
     .help = "The umad port MADs leave through, 0 for the first active",
     .default_text = "0",
     .max = 254},
    {.key = "mad.sm_key",
     .type = OptionType::integer,
     .help = "SM_Key (0x... or decimal) for the SA's records: the sm view of P_Key tables, and "
             "locally of GID tables",
     .value_name = "KEY"},
    {.key = "mad.timeout",
     .type = OptionType::duration,
     .help = "Per-MAD timeout",
     .default_text = "200ms",
     .min_duration = std::chrono::milliseconds(1)},
    {.key = "mad.retries",
     .type = OptionType::integer,
     .help = "Retries per MAD",
     .default_text = "2",
     .max = 20},
    {.key = "mad.concurrency",
     .type = OptionType::integer,
     .help = "Ceiling of outstanding MADs per target (the window adapts below it)",
     .default_text = "4",
     .min = 1,
     .max = 1024},
    {.key = "mad.in_flight",
     .type = OptionType::integer,
     .help = "Ceiling of outstanding MADs in all",
     .default_text = "128",
     .min = 1,
     .max = 4096},
    {.key = "mad.shard",
     .type = OptionType::string,
     .help = "Read only part K of N of the subnet's nodes, so that N collectors split one subnet",
     .value_name = "K/N",
     .check = check_shard},
    {.key = "mad.discovery_interval",
     .type = OptionType::duration,
     .help = "Subnet scope: how often the subnet is discovered again",
     .default_text = "10m",
     .min_duration = std::chrono::seconds(1)},
    {.key = "mad.pkey_interval",
     .type = OptionType::duration,
     .help = "Subnet scope: how often P_Key tables are read (default the P_Key interval)",
     .min_duration = std::chrono::seconds(1)},
    {.key = "mad.counter_interval",
     .type = OptionType::duration,
     .help = "Subnet scope: how often PMA counters are read",
     .default_text = "30s",
     .min_duration = std::chrono::seconds(1)},
    {.key = "mad.traps",
     .type = OptionType::boolean,
     .help = "Subscribe to the SM's traps (default on at subnet scope)",
     .check = check_traps},
};

}  // namespace

std::span<const sources::OptionSpec> mad_options() {
    return kMadOptions;
}

}  // namespace rdmadiag::mad
