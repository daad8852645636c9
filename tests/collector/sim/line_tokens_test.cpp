#include "collector/sim/line_tokens.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::sim {
namespace {

TEST(LineTokens, SplitsWordsWithColumns) {
    auto t = tokenize_line("port  mlx5_0:1\tlid=3");
    ASSERT_TRUE(t.ok());
    ASSERT_EQ(t->size(), 3u);
    EXPECT_EQ((*t)[0].text, "port");
    EXPECT_EQ((*t)[0].column, 1u);
    EXPECT_EQ((*t)[1].text, "mlx5_0:1");
    EXPECT_EQ((*t)[1].column, 7u);
    EXPECT_EQ((*t)[2].column, 16u);
    EXPECT_FALSE((*t)[1].is_option());
    ASSERT_TRUE((*t)[2].is_option());
    EXPECT_EQ((*t)[2].key(), "lid");
    EXPECT_EQ((*t)[2].value(), "3");
}

TEST(LineTokens, QuotesGroupBlanksAndEscapes) {
    auto t = tokenize_line(R"(device x desc="node 01 \"HCA\" \\1" "a=b")");
    ASSERT_TRUE(t.ok());
    ASSERT_EQ(t->size(), 4u);
    EXPECT_EQ((*t)[2].key(), "desc");
    EXPECT_EQ((*t)[2].value(), R"(node 01 "HCA" \1)");
    // An '=' inside quotes does not make an option.
    EXPECT_EQ((*t)[3].text, "a=b");
    EXPECT_FALSE((*t)[3].is_option());
}

TEST(LineTokens, CommentsEndTheLineOutsideQuotes) {
    auto t = tokenize_line("at 1s event mlx5_0:1 PKEY_CHANGE # the SM swept");
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->size(), 5u);
    auto q = tokenize_line(R"(title "P_Key #1 story" # note)");
    ASSERT_TRUE(q.ok());
    ASSERT_EQ(q->size(), 2u);
    EXPECT_EQ((*q)[1].text, "P_Key #1 story");
    auto only = tokenize_line("   # nothing here");
    ASSERT_TRUE(only.ok());
    EXPECT_TRUE(only->empty());
}

TEST(LineTokens, UnterminatedQuoteNamesItsColumn) {
    auto t = tokenize_line(R"(title "never closed)");
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.error().message, "7: unterminated quote");
}

TEST(LineTokens, LeadingEqualsIsNotAnOption) {
    auto t = tokenize_line("=3");
    ASSERT_TRUE(t.ok());
    EXPECT_FALSE((*t)[0].is_option());
}

}  // namespace
}  // namespace rdmadiag::sim
