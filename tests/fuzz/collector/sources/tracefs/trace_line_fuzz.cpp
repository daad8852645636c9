// The trace_pipe path: bytes cut into lines by the LineAssembler, each line split into its ftrace
// columns and read as an MR event. A read of trace_pipe can end anywhere, so the same bytes are
// also fed in small pieces; both ways must yield the same lines.

#include <cstdint>
#include <string>
#include <vector>

#include "collector/sources/tracefs/line_assembler.hpp"
#include "collector/sources/tracefs/mr_trace_parser.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

namespace {

constexpr size_t kMaxLine = 512;

bool inside(std::string_view part, std::string_view whole) {
    return part.empty() || (part.data() >= whole.data() &&
                            part.data() + part.size() <= whole.data() + whole.size());
}

void check_line(std::string_view line) {
    FUZZ_CHECK(line.find('\n') == std::string_view::npos);
    auto split = tracefs::split_ftrace_line(line);
    if (split && *split) {
        const tracefs::FtraceLine& f = **split;
        FUZZ_CHECK(!f.event.empty() && inside(f.event, line));
        FUZZ_CHECK(inside(f.body, line) && inside(f.comm, line));
        FUZZ_CHECK(f.timestamp.count() >= 0);
    }
    size_t splice = tracefs::find_spliced_record(line);
    FUZZ_CHECK(splice == std::string_view::npos || splice < line.size());

    auto mr = tracefs::parse_mr_trace_line(line);
    if (mr && *mr) {
        const tracefs::TraceMrEvent& ev = **mr;
        FUZZ_CHECK(split && *split);
        FUZZ_CHECK(tracefs::is_mr_trace_event(ev.event));
        FUZZ_CHECK(ev.timestamp == (*split)->timestamp);
        FUZZ_CHECK(ev.cpu == (*split)->cpu);
        // The device the caller names is the only thing that changes with it.
        auto named = tracefs::parse_mr_trace_line(line, "mlx5_0");
        FUZZ_CHECK(named && *named);
        MrEvent expected = ev.mr;
        expected.device = "mlx5_0";
        FUZZ_CHECK((*named)->mr == expected);
    }
    if (!split) FUZZ_CHECK(!mr);
}

std::vector<std::string> lines_of(std::string_view bytes, size_t piece, uint64_t& overlong) {
    tracefs::LineAssembler assembler(kMaxLine);
    std::vector<std::string> lines;
    for (size_t at = 0; at < bytes.size(); at += piece) {
        assembler.feed(bytes.substr(at, piece), [&](std::string_view line) {
            FUZZ_CHECK(line.size() <= kMaxLine);
            lines.emplace_back(line);
        });
        FUZZ_CHECK(assembler.pending() <= kMaxLine);
    }
    overlong = assembler.overlong();
    return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view bytes = fuzz::as_text(data, size);
    uint64_t overlong_whole = 0;
    uint64_t overlong_pieces = 0;
    auto whole = lines_of(bytes, bytes.size() + 1, overlong_whole);
    auto pieces = lines_of(bytes, 1 + size % 61, overlong_pieces);
    FUZZ_CHECK(whole == pieces);
    FUZZ_CHECK(overlong_whole == overlong_pieces);
    for (const auto& line : whole) check_line(line);
    return 0;
}
