#include "collector/model/copy_on_write_vector.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>

namespace rdmadiag {
namespace {

using Names = CopyOnWriteVector<std::string>;

TEST(CopyOnWriteVector, ReadsLikeAVector) {
    const Names v{"a", "b", "c"};
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[1], "b");
    EXPECT_EQ(v.front(), "a");
    EXPECT_EQ(v.back(), "c");
    EXPECT_EQ(std::string(v.begin()->c_str()), "a");
    EXPECT_EQ(v.end() - v.begin(), 3);
    auto it = std::lower_bound(v.begin(), v.end(), std::string("b"));
    EXPECT_EQ(it - v.begin(), 1);
}

TEST(CopyOnWriteVector, ACopySharesUntilWrittenAndNeverSeesTheWrite) {
    Names a{"x", "y"};
    Names b = a;
    EXPECT_EQ(a.shared(0), b.shared(0));
    b[0] = "changed";
    EXPECT_EQ(a[0], "x");
    EXPECT_EQ(b[0], "changed");
    EXPECT_NE(a.shared(0), b.shared(0));
    // The element nobody wrote is still one object.
    EXPECT_EQ(a.shared(1), b.shared(1));
}

TEST(CopyOnWriteVector, WritingAnElementHeldOnlyHereDoesNotCopyIt) {
    Names a{"x"};
    const std::string* before = &std::as_const(a)[0];
    a[0] += "y";
    EXPECT_EQ(&std::as_const(a)[0], before);
    EXPECT_EQ(a[0], "xy");
}

TEST(CopyOnWriteVector, MutableIterationMakesOnlyVisitedElementsOwn) {
    Names a{"p", "q", "r"};
    Names b = a;
    for (auto it = b.begin(); it != b.end(); ++it) {
        if (it.index() == 2) *it = "R";
    }
    EXPECT_EQ(a.shared(0), b.shared(0));
    EXPECT_EQ(a.shared(1), b.shared(1));
    EXPECT_EQ(a[2], "r");
    EXPECT_EQ(b[2], "R");
}

TEST(CopyOnWriteVector, TakesOverSharedElementsAndComparesByValue) {
    Names a{"m", "n"};
    Names b;
    b.push_shared(a.shared(0));
    b.push_back("n");
    EXPECT_EQ(a, b);
    b.set(1, "o");
    EXPECT_FALSE(a == b);
}

TEST(CopyOnWriteVector, EditsTheListWithoutTouchingSharedElements) {
    Names a{"1", "2", "3", "4"};
    Names b = a;
    EXPECT_EQ(erase_if(b, [](const std::string& s) { return s == "2" || s == "4"; }), 2u);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b.shared(1), a.shared(2));
    b.insert(b.cbegin() + 1, "1.5");
    EXPECT_EQ(b[1], "1.5");
    b.erase(b.cbegin());
    EXPECT_EQ(std::as_const(b).front(), "1.5");
    b.resize(4);
    EXPECT_EQ(std::as_const(b)[3], "");
    b.pop_back();
    EXPECT_EQ(b.size(), 3u);
    EXPECT_EQ(a.size(), 4u);
}

}  // namespace
}  // namespace rdmadiag
