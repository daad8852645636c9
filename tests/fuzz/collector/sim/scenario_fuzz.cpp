// The scenario text format (docs/scenarios.md), as `--simulate=FILE` reads it. Errors name their
// place; an accepted scenario has its steps in time order within its end, and the player can run
// it without tripping over anything the parser let through.

#include <algorithm>
#include <cstdint>
#include <string>

#include "collector/sim/scenario_parser.hpp"
#include "collector/sim/scenario_player.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;
using namespace rdmadiag::sim;

namespace {

// Checks what the player emits while it runs, and that time never runs backwards in it.
class CheckingSink final : public sources::ObservationSink {
public:
    explicit CheckingSink(TimePoint start) : start_(start) {}
    void emit(Observation obs) override {
        FUZZ_CHECK(obs.time >= start_);
        FUZZ_CHECK(obs.source == "sim");
        ++count_;
    }
    uint64_t count() const { return count_; }

private:
    TimePoint start_;
    uint64_t count_ = 0;
};

// Longer scenarios are played only in part: the player samples every second.
constexpr Duration kMaxPlayed = std::chrono::minutes(2);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text = fuzz::as_text(data, size);
    auto scenario = parse_scenario(text);
    if (!scenario) {
        const std::string& m = scenario.error().message;
        FUZZ_CHECK(!m.empty());
        return 0;
    }
    size_t lines = 1 + static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    FUZZ_CHECK(std::is_sorted(scenario->steps.begin(), scenario->steps.end(),
                              [](const Step& a, const Step& b) { return a.at < b.at; }));
    for (const Step& s : scenario->steps) {
        FUZZ_CHECK(s.at >= Duration::zero());
        FUZZ_CHECK(s.line >= 1 && s.line <= lines);
        FUZZ_CHECK(s.at <= scenario->end);
    }
    FUZZ_CHECK(scenario->end >= Duration::zero());
    // Parsing is a pure function of the text.
    auto again = parse_scenario(text);
    FUZZ_CHECK(again && *again == *scenario);

    const TimePoint start{std::chrono::hours(24)};
    CheckingSink sink(start);
    ScenarioPlayer player(*scenario, PlayerOptions{});
    player.start(start, sink);
    FUZZ_CHECK(sink.count() >= 1);  // the source's status
    const TimePoint until = start + std::min(scenario->end, kMaxPlayed);
    for (TimePoint t = start; t < until; t += std::chrono::seconds(7)) player.play_until(t, sink);
    player.play_until(until, sink);
    FUZZ_CHECK(player.played_until() == until);
    return 0;
}
