#include "collector/sources/sysfs/sysfs_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "tests/collector/sources/sysfs/sysfs_tree_writer.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

class PosixSysfsReaderTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(tmp.ok()); }
    test::TempTree tmp;
    PosixSysfsReader reader;
    char buf[kReadBufferSize];
};

TEST_F(PosixSysfsReaderTest, ReadsAWholeSmallFile) {
    ASSERT_TRUE(test::write_text_file(tmp.path() + "/lid", "0x1a\n").ok());
    auto n = reader.read_file(tmp.path() + "/lid", buf, sizeof buf);
    ASSERT_TRUE(n.ok()) << n.error().message;
    EXPECT_EQ(std::string(buf, *n), "0x1a\n");
}

TEST_F(PosixSysfsReaderTest, ReadsAnEmptyFileAsZeroBytes) {
    ASSERT_TRUE(test::write_text_file(tmp.path() + "/node_desc", "").ok());
    auto n = reader.read_file(tmp.path() + "/node_desc", buf, sizeof buf);
    ASSERT_TRUE(n.ok());
    EXPECT_EQ(*n, 0u);
}

TEST_F(PosixSysfsReaderTest, ReportsErrnoForMissingAndDirectory) {
    auto missing = reader.read_file(tmp.path() + "/nope", buf, sizeof buf);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    EXPECT_NE(missing.error().message.find(tmp.path() + "/nope"), std::string::npos);

    tmp.make_unreadable("rate");
    auto dir = reader.read_file(tmp.path() + "/rate", buf, sizeof buf);
    ASSERT_FALSE(dir.ok());
    EXPECT_EQ(dir.error().code, EISDIR);
}

TEST_F(PosixSysfsReaderTest, AFileThatFillsTheBufferIsTooLong) {
    ASSERT_TRUE(test::write_text_file(tmp.path() + "/big", std::string(kReadBufferSize, '1')).ok());
    auto n = reader.read_file(tmp.path() + "/big", buf, sizeof buf);
    ASSERT_FALSE(n.ok());
    EXPECT_EQ(n.error().code, EOVERFLOW);
    ASSERT_TRUE(
        test::write_text_file(tmp.path() + "/fits", std::string(kReadBufferSize - 1, '1')).ok());
    EXPECT_TRUE(reader.read_file(tmp.path() + "/fits", buf, sizeof buf).ok());
}

TEST_F(PosixSysfsReaderTest, ListsEntriesWithoutDotAndDotDot) {
    ASSERT_TRUE(test::write_text_file(tmp.path() + "/d/0", "0xffff\n").ok());
    ASSERT_TRUE(test::write_text_file(tmp.path() + "/d/1", "0x0000\n").ok());
    auto names = reader.list_dir(tmp.path() + "/d");
    ASSERT_TRUE(names.ok());
    std::sort(names->begin(), names->end());
    EXPECT_EQ(*names, (std::vector<std::string>{"0", "1"}));
    auto missing = reader.list_dir(tmp.path() + "/none");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    auto not_dir = reader.list_dir(tmp.path() + "/d/0");
    ASSERT_FALSE(not_dir.ok());
    EXPECT_EQ(not_dir.error().code, ENOTDIR);
}

}  // namespace
}  // namespace rdmadiag::sysfs
