#include "collector/sources/tracefs/line_assembler.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rdmadiag::tracefs {
namespace {

std::vector<std::string> feed(LineAssembler& a, const std::vector<std::string>& reads) {
    std::vector<std::string> lines;
    for (const auto& r : reads) a.feed(r, [&](std::string_view l) { lines.emplace_back(l); });
    return lines;
}

TEST(LineAssembler, JoinsALineCutAcrossReads) {
    LineAssembler a(16);
    EXPECT_EQ(feed(a, {"ab", "c\nde", "f\n"}), (std::vector<std::string>{"abc", "def"}));
    EXPECT_EQ(a.pending(), 0u);
    EXPECT_EQ(feed(a, {"tail"}), std::vector<std::string>{});
    EXPECT_EQ(a.pending(), 4u);
}

TEST(LineAssembler, DropsAnOverlongLineThatSpansReads) {
    LineAssembler a(8);
    EXPECT_EQ(feed(a, {"0123456", "789abc", "def\nok\n"}), std::vector<std::string>{"ok"});
    EXPECT_EQ(a.overlong(), 1u);
}

// The bound holds however the reads fall: a line longer than it is dropped even when one read
// holds all of it.
TEST(LineAssembler, DropsAnOverlongLineInsideOneRead) {
    LineAssembler a(8);
    EXPECT_EQ(feed(a, {"0123456789abcdef\nok\n"}), std::vector<std::string>{"ok"});
    EXPECT_EQ(a.overlong(), 1u);
    LineAssembler b(8);
    EXPECT_EQ(feed(b, {"01234567\n"}), std::vector<std::string>{"01234567"});
    EXPECT_EQ(b.overlong(), 0u);
}

}  // namespace
}  // namespace rdmadiag::tracefs
