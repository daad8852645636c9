#include "collector/common/text_file.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_dir.hpp"

namespace rdmadiag::common {
namespace {

TEST(TextFile, ReadsAWholeFile) {
    const test::TempDir dir("text-file");
    const std::string path = dir.file("two-lines.txt");
    std::ofstream(path) << "line one\nline two\n";
    auto text = read_text_file(path);
    ASSERT_TRUE(text.ok()) << text.error().message;
    EXPECT_EQ(*text, "line one\nline two\n");
}

TEST(TextFile, ReportsMissingAndOversizedFiles) {
    auto missing = read_text_file("/nonexistent/rdmadiag.yml");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("/nonexistent/rdmadiag.yml"), std::string::npos);
    EXPECT_EQ(missing.error().code, ENOENT);
    auto big = read_text_file("/proc/self/exe", 16);
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.error().message.find("too large"), std::string::npos);
}

}  // namespace
}  // namespace rdmadiag::common
