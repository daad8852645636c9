#include "collector/sources/sysfs/sysfs_reader.hpp"

#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/vfs.h>

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

// --- files held open between passes ---

std::string text_of(const Result<size_t>& n, const char* buf) {
    return n ? std::string(buf, *n) : "error: " + n.error().message;
}

TEST_F(PosixSysfsReaderTest, AHeldFileIsReadAfreshEachTime) {
    PosixSysfsReader held(8);
    const std::string path = tmp.path() + "/ports/1/state";
    ASSERT_TRUE(test::write_text_file(path, "4: ACTIVE\n").ok());
    EXPECT_EQ(text_of(held.read_held(path, buf, sizeof buf), buf), "4: ACTIVE\n");
    EXPECT_EQ(held.held(), 1u);
    // Rewritten in place, as the kernel produces a new value on every read from the start.
    ASSERT_TRUE(test::write_text_file(path, "1: DOWN\n").ok());
    EXPECT_EQ(text_of(held.read_held(path, buf, sizeof buf), buf), "1: DOWN\n");
    EXPECT_EQ(held.held(), 1u);
}

TEST_F(PosixSysfsReaderTest, NoMoreFilesAreHeldThanAllowedAndTheRestAreStillRead) {
    PosixSysfsReader held(2);
    for (int i = 0; i < 5; ++i) {
        const std::string path = tmp.path() + "/c/" + std::to_string(i);
        ASSERT_TRUE(test::write_text_file(path, std::to_string(i * 10) + "\n").ok());
        EXPECT_EQ(text_of(held.read_held(path, buf, sizeof buf), buf),
                  std::to_string(i * 10) + "\n");
    }
    EXPECT_EQ(held.held(), 2u);
    PosixSysfsReader none;  // holds nothing by default
    EXPECT_TRUE(none.read_held(tmp.path() + "/c/0", buf, sizeof buf).ok());
    EXPECT_EQ(none.held(), 0u);
}

// A reload builds the new source before the old one goes: the budget is the process's.
TEST_F(PosixSysfsReaderTest, TwoReadersShareOneBudget) {
    for (int i = 0; i < 6; ++i) {
        ASSERT_TRUE(test::write_text_file(tmp.path() + "/c/" + std::to_string(i), "1\n").ok());
    }
    PosixSysfsReader old_one(4);
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(old_one.read_held(tmp.path() + "/c/" + std::to_string(i), buf, sizeof buf));
    }
    {
        PosixSysfsReader new_one(4);
        for (int i = 0; i < 6; ++i) {
            EXPECT_TRUE(new_one.read_held(tmp.path() + "/c/" + std::to_string(i), buf, sizeof buf))
                << "still read, held or not";
        }
        EXPECT_EQ(old_one.held() + new_one.held(), 4u);
    }
    // The new one gone, its share is free again.
    ASSERT_TRUE(old_one.read_held(tmp.path() + "/c/5", buf, sizeof buf));
    EXPECT_EQ(old_one.held(), 4u);
}

TEST_F(PosixSysfsReaderTest, AFileThatCannotBeReadIsNotHeldAndKeepsItsError) {
    PosixSysfsReader held(8);
    auto missing = held.read_held(tmp.path() + "/none", buf, sizeof buf);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    ASSERT_TRUE(test::write_text_file(tmp.path() + "/d/x", "1\n").ok());
    auto dir = held.read_held(tmp.path() + "/d", buf, sizeof buf);
    ASSERT_FALSE(dir.ok());
    EXPECT_EQ(dir.error().code, EISDIR);
    ASSERT_TRUE(
        test::write_text_file(tmp.path() + "/long", std::string(kReadBufferSize, 'x')).ok());
    auto long_value = held.read_held(tmp.path() + "/long", buf, sizeof buf);
    ASSERT_FALSE(long_value.ok());
    EXPECT_EQ(long_value.error().code, EOVERFLOW);
    EXPECT_EQ(held.held(), 0u);
}

TEST_F(PosixSysfsReaderTest, ReleasingADeviceLetsGoOfItsFilesOnly) {
    PosixSysfsReader held(8);
    for (const char* f : {"/mlx5_0/ports/1/state", "/mlx5_0/ports/2/state",
                          "/mlx5_00/ports/1/state", "/mlx5_1/ports/1/state"}) {
        ASSERT_TRUE(test::write_text_file(tmp.path() + f, "4: ACTIVE\n").ok());
        ASSERT_TRUE(held.read_held(tmp.path() + f, buf, sizeof buf).ok());
    }
    EXPECT_EQ(held.held(), 4u);
    held.release(tmp.path() + "/mlx5_0");  // not mlx5_00, whose name only starts the same way
    EXPECT_EQ(held.held(), 2u);
}

TEST_F(PosixSysfsReaderTest, ASlotFindsItsFileAndAStaleOneIsOnlySlower) {
    PosixSysfsReader held(8);
    const std::string a = tmp.path() + "/mlx5_0/ports/1/state";
    const std::string b = tmp.path() + "/mlx5_1/ports/1/state";
    ASSERT_TRUE(test::write_text_file(a, "4: ACTIVE\n").ok());
    ASSERT_TRUE(test::write_text_file(b, "1: DOWN\n").ok());
    HeldSlot sa, sb;
    EXPECT_EQ(text_of(held.read_held(a, buf, sizeof buf, sa), buf), "4: ACTIVE\n");
    EXPECT_EQ(text_of(held.read_held(b, buf, sizeof buf, sb), buf), "1: DOWN\n");
    EXPECT_NE(sa.index, sb.index);
    EXPECT_EQ(held.held(), 2u);
    ASSERT_TRUE(test::write_text_file(a, "2: INIT\n").ok());
    EXPECT_EQ(text_of(held.read_held(a, buf, sizeof buf, sa), buf), "2: INIT\n");
    // mlx5_0 goes away: its entry is reused for another file, and a's slot must not read it.
    held.release(tmp.path() + "/mlx5_0");
    EXPECT_EQ(held.held(), 1u);
    const std::string c = tmp.path() + "/mlx5_2/ports/1/state";
    ASSERT_TRUE(test::write_text_file(c, "3: ARMED\n").ok());
    HeldSlot sc;
    EXPECT_EQ(text_of(held.read_held(c, buf, sizeof buf, sc), buf), "3: ARMED\n");
    EXPECT_EQ(sc.index, sa.index) << "the entry let go of is reused";
    EXPECT_EQ(text_of(held.read_held(a, buf, sizeof buf, sa), buf), "2: INIT\n");
    EXPECT_NE(sa.index, sc.index);
    EXPECT_EQ(text_of(held.read_held(c, buf, sizeof buf, sc), buf), "3: ARMED\n");
    // A new slot for a held file finds it by its path.
    HeldSlot fresh;
    EXPECT_EQ(text_of(held.read_held(b, buf, sizeof buf, fresh), buf), "1: DOWN\n");
    EXPECT_EQ(fresh.index, sb.index);
    EXPECT_EQ(held.held(), 3u);
}

TEST_F(PosixSysfsReaderTest, AHeldDirectoryIsListedAfreshEachTime) {
    PosixSysfsReader held(8);
    const std::string dir = tmp.path() + "/class";
    ASSERT_TRUE(test::write_text_file(dir + "/mlx5_0/node_type", "1: CA\n").ok());
    auto sorted = [](Result<std::vector<std::string>> names) {
        if (!names) return std::vector<std::string>{"error: " + names.error().message};
        std::sort(names->begin(), names->end());
        return *names;
    };
    EXPECT_EQ(sorted(held.list_held_dir(dir)), (std::vector<std::string>{"mlx5_0"}));
    EXPECT_EQ(held.held_dirs(), 1u);
    // A device registered after the first listing, and enough of them to need several reads of
    // the directory.
    std::vector<std::string> want{"mlx5_0"};
    for (int i = 1; i <= 300; ++i) {
        const std::string name = "mlx5_" + std::to_string(i) + std::string(20, 'x');
        ASSERT_TRUE(test::write_text_file(dir + "/" + name + "/node_type", "1: CA\n").ok());
        want.push_back(name);
    }
    std::sort(want.begin(), want.end());
    EXPECT_EQ(sorted(held.list_held_dir(dir)), want);
    EXPECT_EQ(held.held_dirs(), 1u);
    auto missing = held.list_held_dir(tmp.path() + "/none");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ENOENT);
    EXPECT_EQ(held.held_dirs(), 1u);
    PosixSysfsReader none;  // lists, holds nothing
    EXPECT_EQ(sorted(none.list_held_dir(dir)), want);
    EXPECT_EQ(none.held_dirs(), 0u);
}

TEST(HeldFileBudget, IsAShareOfTheDescriptorLimit) {
    rlimit lim{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &lim), 0);
    const size_t budget = held_file_budget();
    EXPECT_GT(budget, 0u);
    if (lim.rlim_cur != RLIM_INFINITY) {
        EXPECT_LE(budget, lim.rlim_cur / 2);
    }
}

TEST(MountedSysfs, AFixtureTreeIsNotASysfs) {
    test::TempTree tree;
    ASSERT_TRUE(tree.ok());
    EXPECT_FALSE(is_mounted_sysfs(tree.path()));
    EXPECT_FALSE(is_mounted_sysfs(tree.path() + "/missing"));
    struct statfs fs {};
    const bool sys_is_sysfs = ::statfs("/sys", &fs) == 0 && fs.f_type == SYSFS_MAGIC;
    EXPECT_EQ(is_mounted_sysfs("/sys"), sys_is_sysfs);
}

}  // namespace
}  // namespace rdmadiag::sysfs
