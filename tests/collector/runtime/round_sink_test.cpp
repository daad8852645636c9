#include "collector/runtime/round_sink.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::runtime {
namespace {

Observation at(int second, std::string source) {
    return Observation{TimePoint{std::chrono::seconds(second)}, std::move(source), DeviceList{{}}};
}

struct Fed {
    std::vector<std::vector<std::string>> batches;  // sources, in the order fed
    void take(std::vector<Observation>& batch) {
        auto& b = batches.emplace_back();
        for (const auto& o : batch)
            b.push_back(o.source + "@" +
                        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                           o.time.time_since_epoch())
                                           .count()));
    }
};

TEST(RoundSink, FeedsFullBatchesAsTheyFillAndTheRestOnFlush) {
    Fed fed;
    RoundSink sink(3, [&](std::vector<Observation>& b) { fed.take(b); });
    for (int i = 0; i < 7; ++i) sink.emit(at(i, "s"));
    EXPECT_EQ(fed.batches.size(), 2u) << "two full batches of three, one observation held";
    EXPECT_EQ(sink.emitted(), 7u);
    sink.flush();
    ASSERT_EQ(fed.batches.size(), 3u);
    EXPECT_EQ(fed.batches[2], (std::vector<std::string>{"s@6"}));
    sink.flush();
    EXPECT_EQ(fed.batches.size(), 3u) << "nothing held, nothing fed";
}

TEST(RoundSink, ABatchIsInTimeOrderAndKeepsEmissionOrderForEqualTimes) {
    Fed fed;
    RoundSink sink(100, [&](std::vector<Observation>& b) { fed.take(b); });
    sink.emit(at(2, "a"));
    sink.emit(at(1, "b"));
    sink.emit(at(2, "c"));
    sink.emit(at(1, "d"));
    sink.flush();
    ASSERT_EQ(fed.batches.size(), 1u);
    EXPECT_EQ(fed.batches[0], (std::vector<std::string>{"b@1", "d@1", "a@2", "c@2"}));
}

}  // namespace
}  // namespace rdmadiag::runtime
