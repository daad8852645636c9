// A recording file (JSON Lines) as `rdmadiag replay` reads it: a header line, then observations.
// A bad line is a problem with its number and is skipped; only a bad header stops the reading.
// Every observation that is read back must write out to a line that reads back to the same
// observation, and the header must survive being written again.

#include <cstdint>
#include <sstream>
#include <string>

#include "collector/json/observation_json.hpp"
#include "collector/replay/recording_reader.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(fuzz::as_text(data, size)));
    replay::RecordingReader reader(in);
    if (!reader.header()) {
        FUZZ_CHECK(!reader.next());
        return 0;
    }
    const replay::RecordingHeader& header = *reader.header();
    FUZZ_CHECK(header.version >= 1 && header.version <= replay::kRecordingVersion);
    auto header_again = replay::parse_recording_header(recording_header_line(header));
    FUZZ_CHECK(header_again && header_again->version == header.version &&
               header_again->origin == header.origin && header_again->host == header.host);
    auto header_third = replay::parse_recording_header(recording_header_line(*header_again));
    FUZZ_CHECK(header_third && *header_third == *header_again);

    uint64_t observations = 0;
    while (auto obs = reader.next()) {
        ++observations;
        std::string line = codec::observation_to_line(*obs);
        FUZZ_CHECK(line.find('\n') == std::string::npos);
        auto again = codec::observation_from_line(line);
        FUZZ_CHECK(again && *again == *obs);
    }
    uint64_t last = 0;
    for (const auto& p : reader.problems()) {
        FUZZ_CHECK(p.line > last && p.line <= reader.lines_read() + 1);
        FUZZ_CHECK(!p.message.empty());
        last = p.line;
    }
    FUZZ_CHECK(observations + reader.problems().size() <= reader.lines_read());
    return 0;
}
