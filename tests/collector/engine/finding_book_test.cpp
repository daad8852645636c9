#include "collector/engine/finding_book.hpp"

#include <gtest/gtest.h>

#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine {
namespace {

using test::at;

Finding make(const char* rule, Severity sev, uint32_t port, double since) {
    Finding f;
    f.rule = rule;
    f.severity = sev;
    f.subject.device = "mlx5_0";
    f.subject.port = port;
    f.since = at(since);
    f.evidence = "e";
    return f;
}

TEST(FindingBook, RaiseKeepsSinceAndClearMovesToHistory) {
    FindingBook book(2);
    EXPECT_TRUE(book.raise(make("pkey.cache_stale", Severity::warning, 1, 10)));
    auto again = make("pkey.cache_stale", Severity::critical, 1, 20);
    again.evidence = "newer";
    EXPECT_FALSE(book.raise(again));
    auto* f = book.find("pkey.cache_stale", FindingSubject{"mlx5_0", 1, {}, {}, {}});
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->since, at(10));
    EXPECT_EQ(f->evidence, "newer");
    EXPECT_EQ(f->severity, Severity::critical);

    EXPECT_TRUE(book.clear("pkey.cache_stale", f->subject, at(30)));
    EXPECT_TRUE(book.active().empty());
    ASSERT_EQ(book.history().size(), 1u);
    EXPECT_EQ(book.history().front().cleared, at(30));
    EXPECT_FALSE(book.clear("pkey.cache_stale", FindingSubject{"mlx5_0", 1, {}, {}, {}}, at(31)));
}

TEST(FindingBook, OrdersBySeverityThenAgeAndBoundsHistory) {
    FindingBook book(2);
    book.raise(make("a", Severity::warning, 1, 1));
    book.raise(make("b", Severity::critical, 1, 5));
    book.raise(make("c", Severity::warning, 2, 0));
    auto act = book.active();
    ASSERT_EQ(act.size(), 3u);
    EXPECT_EQ(act[0].rule, "b");
    EXPECT_EQ(act[1].rule, "c");
    EXPECT_EQ(act[2].rule, "a");
    book.clear_rule_except("a", {}, at(9));
    book.clear("b", act[0].subject, at(10));
    book.clear("c", act[1].subject, at(11));
    EXPECT_EQ(book.history().size(), 2u);
    EXPECT_EQ(book.history().front().rule, "c");
    EXPECT_EQ(book.raised_total(), 3u);
}

}  // namespace
}  // namespace rdmadiag::engine
