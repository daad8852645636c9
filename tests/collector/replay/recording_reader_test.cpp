#include "collector/replay/recording_reader.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <variant>

#include "collector/replay/recorder.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::replay {
namespace {

Observation counter_obs(int64_t s, uint64_t value) {
    CounterSample c;
    c.port = PortRef{"mlx5_0", 1};
    c.name = "symbol_error";
    c.value = value;
    c.width = 16;
    return Observation{TimePoint{std::chrono::seconds(s)}, "sysfs", c};
}

TEST(Recording, WrittenRecordingReadsBack) {
    std::stringstream buf;
    RecordingHeader h;
    h.created = TimePoint{std::chrono::seconds(100)};
    h.origin = "test";
    h.host = "node1";
    sources::VectorSink next;
    Recorder rec(buf, h, &next);
    rec.emit(counter_obs(1, 5));
    rec.emit(counter_obs(2, 6));
    EXPECT_EQ(rec.written(), 2u);
    EXPECT_EQ(next.observations.size(), 2u);  // forwarded too
    auto r = read_recording(buf);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->header, h);
    ASSERT_EQ(r->observations.size(), 2u);
    EXPECT_EQ(r->observations[1], counter_obs(2, 6));
    EXPECT_TRUE(r->problems.empty());
}

TEST(Recording, HeaderLineIsVersioned) {
    const auto line = recording_header_line(RecordingHeader{});
    EXPECT_NE(line.find(R"("format":"rdmadiag-recording")"), std::string::npos);
    EXPECT_NE(line.find(R"("version":1)"), std::string::npos);
}

TEST(Recording, MalformedLinesAreReportedByNumberAndSkipped) {
    std::stringstream buf;
    {
        Recorder rec(buf, RecordingHeader{});
        rec.emit(counter_obs(1, 5));
    }
    buf << "{\"time\": truncated\n";  // line 3
    buf << "\n";                      // line 4: blank, ignored
    buf << R"({"time":"1970-01-01T00:00:03Z","source":"s","kind":"warp"})"
        << "\n";                            // line 5
    Recorder more(buf, RecordingHeader{});  // a second header mid-file (line 6) is malformed too
    more.emit(counter_obs(4, 9));           // line 7
    auto r = read_recording(buf);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->observations.size(), 2u);
    EXPECT_EQ(r->observations[1], counter_obs(4, 9));
    ASSERT_EQ(r->problems.size(), 3u);
    EXPECT_EQ(r->problems[0].line, 3u);
    EXPECT_EQ(r->problems[0].message, "not valid JSON");
    EXPECT_EQ(r->problems[1].line, 5u);
    EXPECT_NE(r->problems[1].message.find("unknown observation kind 'warp'"), std::string::npos);
    EXPECT_EQ(r->problems[2].line, 6u);
}

TEST(Recording, CrLfLineEndingsAreAccepted) {
    std::stringstream buf;
    buf << recording_header_line(RecordingHeader{}) << "\r\n";
    std::stringstream tmp;
    {
        Recorder rec(tmp, RecordingHeader{});
        rec.emit(counter_obs(1, 5));
    }
    std::string header, line;
    std::getline(tmp, header);
    std::getline(tmp, line);
    buf << line << "\r\n";
    auto r = read_recording(buf);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->observations.size(), 1u);
    EXPECT_TRUE(r->problems.empty());
}

TEST(Recording, MissingOrFutureHeaderStopsTheReading) {
    std::stringstream none(
        R"({"time":"1970-01-01T00:00:03Z","source":"s","kind":"device_list","devices":[]})");
    auto r = read_recording(none);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("line 1: not an rdmadiag recording"), std::string::npos)
        << r.error().message;

    std::stringstream future(R"({"format":"rdmadiag-recording","version":99})");
    r = read_recording(future);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("version 99 is not supported"), std::string::npos);

    std::stringstream empty("\n\n");
    r = read_recording(empty);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("empty recording"), std::string::npos);
}

TEST(Recording, MissingFileSaysWhy) {
    auto r = read_recording_file("/nonexistent/rec.jsonl");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cannot open /nonexistent/rec.jsonl"), std::string::npos);
}

// A counter value of 72 digits (found by recording_reader_fuzz) parses as 6.55e+71; it used to
// be cast into a uint64_t, which is undefined. Now that line is skipped with its number and why,
// and the lines around it are read.
TEST(Recording, ANumberOutOfItsFieldsRangeSkipsThatLineOnly) {
    auto r = read_recording_file(::rdmadiag::test::fixtures_dir() +
                                 "/recordings/value_beyond_uint64.jsonl");
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->observations.size(), 1u);
    EXPECT_EQ(std::get<CounterSample>(r->observations[0].body).value, 250u);
    ASSERT_EQ(r->problems.size(), 1u);
    EXPECT_EQ(r->problems[0].line, 3u);
    EXPECT_EQ(r->problems[0].message,
              "malformed observation: field 'value': expected an integer from 0 to "
              "18446744073709551615, got 6.55e+71");
}

TEST(Recording, AHeaderVersionOutOfRangeIsUnsupportedNotWrapped) {
    for (const char* version : {"4294967297", "18446744073709551615", "-1", "1e3"}) {
        std::stringstream buf;
        buf << R"({"format":"rdmadiag-recording","version":)" << version << "}\n";
        auto r = read_recording(buf);
        ASSERT_FALSE(r.ok()) << version;
        EXPECT_NE(r.error().message.find("line 1: recording"), std::string::npos)
            << version << " -> " << r.error().message;
    }
}

}  // namespace
}  // namespace rdmadiag::replay
