#include "collector/sources/netlink/netlink_source.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "tests/collector/sources/netlink/nl_builder.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::netlink {
namespace {

using test::NlBuilder;

// Answers device dumps with `devices` and MR dumps from `mrs` by device index.
NlTransport fake(std::vector<std::pair<uint32_t, std::string>> devices,
                 std::map<uint32_t, std::vector<uint32_t>> mrs, std::vector<int>* asked = nullptr) {
    return [=](std::span<const uint8_t> req) -> Result<std::vector<uint8_t>> {
        nlmsghdr h;
        std::memcpy(&h, req.data(), sizeof h);
        NlBuilder b;
        if (h.nlmsg_type == RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET)) {
            for (const auto& [i, n] : devices) {
                b.begin(RDMA_NLDEV_CMD_GET)
                    .u32(RDMA_NLDEV_ATTR_DEV_INDEX, i)
                    .str(RDMA_NLDEV_ATTR_DEV_NAME, n)
                    .end();
            }
            return b.done().bytes();
        }
        uint32_t index = 0;
        std::memcpy(&index, req.data() + sizeof h + 4, 4);
        if (asked) asked->push_back(static_cast<int>(index));
        auto it = mrs.find(index);
        if (it == mrs.end()) return b.error(-ENODEV).bytes();
        b.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
        for (uint32_t m : it->second) b.mr_entry(m, 1, 1);
        b.unnest().end();
        return b.done().bytes();
    };
}

template <class T>
std::vector<T> of(const sources::VectorSink& s) {
    std::vector<T> out;
    for (const auto& o : s.observations) {
        if (auto* v = std::get_if<T>(&o.body)) out.push_back(*v);
    }
    return out;
}

TEST(NetlinkSource, NamesProcessesFromProcfsAndMarksTheGone) {
    namespace fs = std::filesystem;
    const test::TempDir tmp("netlink-proc");
    const fs::path proc = tmp.path();
    fs::create_directories(proc / "1");
    std::ofstream(proc / "1" / "comm") << "ib_write_bw\n";
    sources::SourceSettings s;
    s.procfs_root = proc.string();
    // Every fake MR is pid 1's; pid 1 lives under this procfs.
    NetlinkSource src(s, fake({{1, "mlx5_0"}}, {{1, {5, 6}}}));
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    auto inv = of<MrInventory>(sink);
    ASSERT_EQ(inv.size(), 2u);
    ASSERT_EQ(inv[0].mrs.size(), 2u);
    EXPECT_EQ(inv[0].mrs[0].comm, "ib_write_bw");
    EXPECT_FALSE(inv[0].mrs[0].owner_gone);
    EXPECT_EQ(inv[1].mrs[0].comm, "ib_write_bw") << "the host-wide listing too";

    // The process has gone since the kernel listed it.
    fs::remove_all(proc / "1");
    sources::VectorSink later;
    src.poll(TimePoint{}, later);
    inv = of<MrInventory>(later);
    ASSERT_EQ(inv.size(), 2u);
    EXPECT_TRUE(inv[0].mrs[0].owner_gone);
    EXPECT_TRUE(inv[0].mrs[0].comm.empty());
    fs::remove_all(proc);

    // Without a procfs to look in, nobody is judged gone.
    s.procfs_root = (proc / "nowhere").string();
    NetlinkSource blind(s, fake({{1, "mlx5_0"}}, {{1, {5}}}));
    sources::VectorSink none;
    blind.poll(TimePoint{}, none);
    EXPECT_FALSE(of<MrInventory>(none).at(0).mrs.at(0).owner_gone);
}

TEST(NetlinkSource, NoDevicesSaysSo) {
    NetlinkSource src(sources::SourceSettings{}, fake({}, {}));
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    auto st = of<SourceStatus>(sink);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_FALSE(st[0].up);
    EXPECT_EQ(st[0].reason, "no RDMA devices (RDMA netlink lists none)");
    EXPECT_FALSE(src.availability().available);
}

TEST(NetlinkSource, ListsEachDeviceAndTheHost) {
    NetlinkSource src(sources::SourceSettings{},
                      fake({{1, "mlx5_0"}, {2, "rxe0"}}, {{1, {17, 18}}, {2, {3}}}));
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    auto inv = of<MrInventory>(sink);
    ASSERT_EQ(inv.size(), 3u);
    EXPECT_EQ(inv[0].device, "mlx5_0");
    EXPECT_EQ(inv[0].mrs.size(), 2u);
    EXPECT_EQ(inv[1].device, "rxe0");
    EXPECT_EQ(inv[2].device, "");
    EXPECT_EQ(inv[2].mrs.size(), 3u);
    EXPECT_TRUE(inv[2].complete);
    EXPECT_TRUE(of<SourceStatus>(sink).at(0).up);
}

TEST(NetlinkSource, AFailedDeviceMakesTheHostListingIncomplete) {
    NetlinkSource src(sources::SourceSettings{}, fake({{1, "mlx5_0"}, {2, "rxe0"}}, {{1, {17}}}));
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    auto inv = of<MrInventory>(sink);
    ASSERT_EQ(inv.size(), 2u);
    EXPECT_FALSE(inv[1].complete);
    auto errs = of<SampleError>(sink);
    ASSERT_EQ(errs.size(), 1u);
    EXPECT_EQ(errs[0].code, ENODEV);
}

TEST(NetlinkSource, DeviceSelectionIsHonoured) {
    sources::SourceSettings s;
    s.include_devices = {"rxe*"};
    std::vector<int> asked;
    NetlinkSource src(s, fake({{1, "mlx5_0"}, {2, "rxe0"}}, {{1, {17}}, {2, {3}}}, &asked));
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    EXPECT_EQ(asked, std::vector<int>{2});
    auto inv = of<MrInventory>(sink);
    ASSERT_EQ(inv.size(), 2u);
    EXPECT_FALSE(inv[1].complete);  // not every device was listed
}

TEST(NetlinkSource, RealNetlinkSaysWhyItHasNothing) {
    std::error_code ec;
    if (std::filesystem::exists("/sys/class/infiniband", ec) &&
        !std::filesystem::is_empty("/sys/class/infiniband", ec)) {
        GTEST_SKIP() << "this machine has RDMA devices; the no-device path is not reachable";
    }
    NetlinkSource src(sources::SourceSettings{});
    sources::VectorSink sink;
    src.poll(TimePoint{}, sink);
    auto st = of<SourceStatus>(sink);
    ASSERT_EQ(st.size(), 1u);
    EXPECT_FALSE(st[0].up);
    EXPECT_FALSE(st[0].reason.empty());
    std::cout << "netlink here: " << st[0].reason << "\n";
}

}  // namespace
}  // namespace rdmadiag::netlink
