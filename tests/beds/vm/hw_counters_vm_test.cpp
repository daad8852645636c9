// rxe0's hardware counters three ways inside the soft-RoCE VM (tests/beds/vm/rxe-vm): through
// RDMA netlink statistics (NetlinkHwCounterReader, one message for the port), from its
// hw_counters/ files, and as `rdma statistic show link rxe0/1` prints them: the same names and
// the same values, with no traffic and after RDMA WRITEs between two QPs looped back over rxe0.
// The sysfs source with the netlink reader gives what it gives reading every file. Outside the
// VM every case skips.

#include <sys/resource.h>
#include <time.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "collector/sources/netlink/hw_counter_reader.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "tests/beds/vm/rxe_verbs.hpp"

namespace rdmadiag::vm {
namespace {

using Values = std::map<std::string, uint64_t>;

const std::string kHwDir = "/sys/class/infiniband/rxe0/ports/1/hw_counters";

Values by_netlink(netlink::NetlinkHwCounterReader& reader) {
    Values out;
    auto got = reader.read({"rxe0", 1}, {}, sources::CounterTiers::all());
    EXPECT_TRUE(got.ok()) << got.error().message;
    if (!got) return out;
    for (const auto& c : *got) out[c.name] = c.value;
    return out;
}

Values by_files() {
    Values out;
    for (const auto& e : std::filesystem::directory_iterator(kHwDir)) {
        const std::string name = e.path().filename().string();
        if (name == "lifespan") continue;  // the driver's cache time, not a counter
        std::ifstream in(e.path());
        uint64_t v = 0;
        in >> v;
        out[name] = v;
    }
    return out;
}

// `rdma statistic show link rxe0/1`: "link rxe0/1 NAME VALUE NAME VALUE ...".
Values by_rdma_tool() {
    Values out;
    FILE* p = popen("rdma statistic show link rxe0/1", "r");
    if (p == nullptr) return out;
    std::string text;
    std::array<char, 4096> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) text.append(buf.data(), n);
    pclose(p);
    std::istringstream in(text);
    std::string word;
    in >> word >> word;  // "link", "rxe0/1"
    std::string name;
    uint64_t value = 0;
    while (in >> name >> value) out[name] = value;
    return out;
}

// The three readings of one quiet moment: netlink before and after agree, so nothing counted
// in between. Gives up after a few tries (a test failure says so).
struct Moment {
    Values netlink, files, tool;
};
Moment quiet_moment(netlink::NetlinkHwCounterReader& reader) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        Moment m;
        m.netlink = by_netlink(reader);
        m.files = by_files();
        m.tool = by_rdma_tool();
        if (by_netlink(reader) == m.netlink) return m;
    }
    ADD_FAILURE() << "rxe0's counters never stood still";
    return {};
}

class HwCountersOnRxe : public RxeQpPair {};

TEST_F(HwCountersOnRxe, NetlinkFilesAndRdmaToolAgreeWithoutTraffic) {
    netlink::NetlinkHwCounterReader reader;
    const auto m = quiet_moment(reader);
    EXPECT_EQ(m.netlink.size(), 15u) << "rxe has 15 counters";
    EXPECT_EQ(m.netlink, m.files);
    EXPECT_EQ(m.netlink, m.tool);
}

TEST_F(HwCountersOnRxe, NetlinkFilesAndRdmaToolAgreeAfterTraffic) {
    netlink::NetlinkHwCounterReader reader;
    const auto before = quiet_moment(reader);
    mr.reset(ibv_reg_mr(pd.get(), buffer.data(), buffer.size(),
                        IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
    ASSERT_TRUE(mr) << "ibv_reg_mr failed";
    constexpr int kWrites = 20;
    for (int i = 1; i <= kWrites; ++i) {
        ibv_sge sge{reinterpret_cast<uint64_t>(buffer.data()), 512, mr->lkey};
        ibv_send_wr wr{};
        ibv_send_wr* bad = nullptr;
        wr.wr_id = static_cast<uint64_t>(i);
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.wr.rdma.remote_addr = reinterpret_cast<uint64_t>(buffer.data() + 4096);
        wr.wr.rdma.rkey = mr->rkey;
        ASSERT_EQ(ibv_post_send(a.get(), &wr, &bad), 0);
        const ibv_wc wc = completion_of(static_cast<uint64_t>(i));
        ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << ibv_wc_status_str(wc.status);
    }
    const auto m = quiet_moment(reader);
    EXPECT_EQ(m.netlink, m.files);
    EXPECT_EQ(m.netlink, m.tool);
    // Each WRITE is a request one way and an ACK back, both sent and received on rxe0.
    EXPECT_GE(m.netlink.at("sent_pkts"), before.netlink.at("sent_pkts") + 2 * kWrites);
    EXPECT_GE(m.netlink.at("rcvd_pkts"), before.netlink.at("rcvd_pkts") + 2 * kWrites);
}

std::vector<CounterSample> hw_samples(sources::Source& src) {
    sources::VectorSink sink;
    dynamic_cast<sysfs::SysfsSource&>(src).sample_all(TimePoint{}, sink);
    std::vector<CounterSample> out;
    for (const auto& o : sink.observations) {
        auto* c = std::get_if<CounterSample>(&o.body);
        if (c && c->kind == CounterKind::hw) out.push_back(*c);
    }
    return out;
}

TEST_F(HwCountersOnRxe, SysfsSourceReadsThroughNetlinkWhatTheFilesSay) {
    sources::SourceSettings s;
    EXPECT_TRUE(sysfs::counter_methods_wanted(s)) << "/sys in the guest is the kernel's sysfs";
    sysfs::CounterReaders readers;
    readers.hw = std::make_unique<netlink::NetlinkHwCounterReader>();
    auto with = sysfs::make_sysfs_source(s, std::move(readers));
    auto files = sysfs::make_sysfs_source(s);
    ASSERT_TRUE(with.ok() && files.ok());
    std::vector<CounterSample> by_netlink_source;
    std::vector<CounterSample> by_files_source;
    for (int attempt = 0; attempt < 20; ++attempt) {
        by_netlink_source = hw_samples(**with);
        by_files_source = hw_samples(**files);
        if (by_netlink_source == hw_samples(**with)) break;
    }
    EXPECT_EQ(by_netlink_source.size(), 15u);
    EXPECT_EQ(by_netlink_source, by_files_source);
    EXPECT_EQ((*with)->figures().front().name, "sysfs_hw_counters_netlink_ports");
    EXPECT_EQ((*with)->figures().front().value, 1);
}

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Not a test of speed (nothing is asserted on time): prints what one reading of rxe0's
// hw_counters/ costs each way, for docs/sources/sysfs.md.
TEST_F(HwCountersOnRxe, PrintsTheCpuOfEachMethod) {
    netlink::NetlinkHwCounterReader reader;
    constexpr int kRounds = 500;
    ASSERT_FALSE(by_netlink(reader).empty());
    double t0 = cpu_seconds();
    for (int i = 0; i < kRounds; ++i)
        ASSERT_TRUE(reader.read({"rxe0", 1}, {}, sources::CounterTiers::all()).ok());
    const double netlink_s = (cpu_seconds() - t0) / kRounds;
    sysfs::PosixSysfsReader files;
    auto names = files.list_dir(kHwDir);
    ASSERT_TRUE(names.ok());
    char buf[sysfs::kReadBufferSize];
    t0 = cpu_seconds();
    for (int i = 0; i < kRounds; ++i) {
        auto listed = files.list_dir(kHwDir);
        ASSERT_TRUE(listed.ok());
        for (const auto& n : *listed) {
            if (n == "lifespan") continue;
            ASSERT_TRUE(files.read_file(kHwDir + "/" + n, buf, sizeof buf).ok());
        }
    }
    const double files_s = (cpu_seconds() - t0) / kRounds;
    std::printf(
        "rxe0:1 hw_counters/ (15 counters), CPU per reading: netlink %.1f us, files %.1f us\n",
        netlink_s * 1e6, files_s * 1e6);
}

}  // namespace
}  // namespace rdmadiag::vm
