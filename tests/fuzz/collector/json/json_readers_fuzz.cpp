// The JSON readers: one observation (a recording line), a whole snapshot (what --remote and the
// GUI read from /api/v1/snapshot) and the MR health object inside it. They promise never to
// throw; what they accept must write out and read back to the same thing.

#include <chrono>
#include <cstdint>

#include "collector/json/checked_json.hpp"
#include "collector/json/mr_state_json.hpp"
#include "collector/json/observation_json.hpp"
#include "collector/json/snapshot_json.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;
using json = codec::Json;

namespace {

void check_observation(const json& j) {
    auto obs = observation_from_json(j);
    if (!obs) {
        FUZZ_CHECK(!obs.error().message.empty());
        return;
    }
    auto again = observation_from_json(codec::observation_to_json(*obs));
    FUZZ_CHECK(again && *again == *obs);
}

void check_snapshot(const json& j) {
    auto snap = snapshot_from_json(j);
    if (!snap) {
        FUZZ_CHECK(!snap.error().message.empty());
        return;
    }
    // Written once, the snapshot is in its one canonical form: reading and writing that again
    // changes nothing.
    json first = codec::snapshot_to_json(*snap);
    auto again = snapshot_from_json(first);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(codec::snapshot_to_json(*again) == first);
    // The document keeps times to the millisecond: a finer time read is written rounded down.
    FUZZ_CHECK(again->sequence == snap->sequence &&
               again->time == std::chrono::floor<std::chrono::milliseconds>(snap->time));
    auto text =
        codec::parse_snapshot_json(first.dump(-1, ' ', false, json::error_handler_t::replace));
    FUZZ_CHECK(text.ok());
}

void check_mr_health(const json& j) {
    auto mrs = mr_health_from_json(j);
    if (!mrs) return;
    json written;
    to_json(written, *mrs);
    auto again = mr_health_from_json(written);
    FUZZ_CHECK(again && *again == *mrs);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text = fuzz::as_text(data, size);
    auto direct = codec::parse_snapshot_json(text);
    auto j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
        FUZZ_CHECK(!direct);
        return 0;
    }
    FUZZ_CHECK(direct.ok() == snapshot_from_json(j).ok());
    check_observation(j);
    check_snapshot(j);
    check_mr_health(j);
    if (j.is_object()) {
        if (auto m = j.find("mrs"); m != j.end()) check_mr_health(*m);
    }
    return 0;
}
