// gen_api_fixture SCENARIO SECONDS [CLOCK_START]: plays a shipped scenario through the default
// engine to SECONDS and prints the snapshot as GET /api/v1/snapshot serves it.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "collector/json/snapshot_json.hpp"
#include "gui/client/engine_timeline.hpp"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: gen_api_fixture SCENARIO SECONDS [CLOCK_START]\n");
        return 2;
    }
    auto start = rdmadiag::parse_time(argc > 3 ? argv[3] : "2026-12-02T10:00:00Z");
    if (!start) {
        std::fprintf(stderr, "gen_api_fixture: %s\n", start.error().message.c_str());
        return 2;
    }
    auto timeline = rdmadiag::gui::client::make_scenario_timeline(argv[1], *start);
    if (!timeline) {
        std::fprintf(stderr, "gen_api_fixture: %s\n", timeline.error().message.c_str());
        return 1;
    }
    const auto at = std::chrono::milliseconds(static_cast<int64_t>(std::atof(argv[2]) * 1000));
    auto snap = (*timeline)->seek(at);
    std::printf("%s\n", rdmadiag::codec::snapshot_to_json(*snap).dump(1).c_str());
    return 0;
}
