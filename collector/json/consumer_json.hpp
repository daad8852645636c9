#pragma once
// JSON of a host's consumers: one consumer, and a device's inventory as a source saw it.

#include <optional>
#include <string_view>

#include "collector/common/result.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/model/consumer.hpp"
#include "collector/model/finding.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const Consumer& v);
void from_json(const codec::Json& j, Consumer& v);
void to_json(codec::Json& j, const ConsumerInventory& v);
void from_json(const codec::Json& j, ConsumerInventory& v);

namespace codec {

// What `rdmadiag consumers --json` and /api/v1/consumers answer: whether any consumers source
// reported (`listed`), each device's inventory with when it was read, and the consumer.*
// findings, limited to a device and a port when given.
Json consumers_to_json(const HostConsumers* consumers, const std::vector<Finding>& findings,
                       const std::optional<std::string>& device,
                       const std::optional<uint32_t>& port);

// The inverse, for a client of /api/v1/consumers: each device's inventory with when it was read;
// none when the answer says no consumers source reported. The findings are left to the snapshot.
Result<std::optional<HostConsumers>> parse_consumers_answer(std::string_view text);

}  // namespace codec

}  // namespace rdmadiag
