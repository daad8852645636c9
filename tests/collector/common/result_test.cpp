#include "collector/common/result.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace rdmadiag::common {
namespace {

Result<int> parse_digit(char c) {
    if (c < '0' || c > '9') return make_error(std::string("not a digit: ") + c, 22);
    return c - '0';
}

Result<int> sum_of_digits(const std::string& text) {
    int sum = 0;
    for (char c : text) sum += RDMADIAG_TRY(parse_digit(c));
    return sum;
}

Result<void> check_even(int n) {
    if (n % 2 != 0) return make_error("odd");
    return {};
}

int checks_run = 0;

Result<std::string> describe_even(int n) {
    RDMADIAG_TRY(check_even(n));
    ++checks_run;
    return std::to_string(n) + " is even";
}

Result<std::unique_ptr<int>> boxed(int n) {
    return std::make_unique<int>(n);
}

Result<int> unbox(int n) {
    std::unique_ptr<int> p = RDMADIAG_TRY(boxed(n));
    return *p;
}

TEST(Result, TryYieldsTheValue) {
    auto r = sum_of_digits("1234");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, 10);
}

TEST(Result, TryPassesTheFirstErrorUp) {
    auto r = sum_of_digits("12x4y");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "not a digit: x");
    EXPECT_EQ(r.error().code, 22);
}

TEST(Result, TryOnAVoidResultContinuesOrReturns) {
    checks_run = 0;
    EXPECT_EQ(describe_even(4).value(), "4 is even");
    EXPECT_EQ(checks_run, 1);
    auto odd = describe_even(3);
    ASSERT_FALSE(odd.ok());
    EXPECT_EQ(odd.error().message, "odd");
    EXPECT_EQ(checks_run, 1);
}

TEST(Result, TryMovesMoveOnlyValues) {
    EXPECT_EQ(unbox(7).value(), 7);
}

Result<int> digits_in_words(const std::string& a, const std::string& b) {
    // A TRY inside a lambda that is itself the argument of a TRY.
    auto count = [](const std::string& word) -> Result<int> {
        return RDMADIAG_TRY(sum_of_digits(word)) >= 0 ? static_cast<int>(word.size()) : 0;
    };
    return RDMADIAG_TRY(count(a)) + RDMADIAG_TRY(count(b));
}

TEST(Result, TryNestsInsideLambdas) {
    EXPECT_EQ(digits_in_words("12", "345").value(), 5);
    EXPECT_EQ(digits_in_words("12", "3x5").error().message, "not a digit: x");
}

TEST(Result, ValueOrFallsBackOnError) {
    EXPECT_EQ(parse_digit('5').value_or(-1), 5);
    EXPECT_EQ(parse_digit('?').value_or(-1), -1);
}

}  // namespace
}  // namespace rdmadiag::common
