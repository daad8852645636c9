// The counter tiers and the counter methods together: the tiers decide which counters a pass
// reads, the methods how. A pass over the fast tier sends the local PMA one PortCounters MAD and
// RDMA netlink nothing; only due counters are emitted, whatever else a query gave; on mlx4 the
// PMA's 64-bit PortCountersExtended values stand for the counters_ext/ files and its 32-bit
// PortCounters fields never do; and a port that changes method moves no total.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sources/mad/local_pma_reader.hpp"
#include "collector/sources/netlink/hw_counter_reader.hpp"
#include "collector/sources/sysfs/legacy_counters.hpp"
#include "tests/collector/sources/mad/answering_transport.hpp"
#include "tests/collector/sources/mad/pma_answers.hpp"
#include "tests/collector/sources/netlink/fake_rdma_netlink.hpp"
#include "tests/collector/sources/sysfs/sysfs_test_support.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"

namespace rdmadiag::sysfs {
namespace {

using namespace test_support;
using std::chrono::seconds;

size_t reads_under(const std::vector<std::string>& reads, const std::string& folder) {
    size_t n = 0;
    for (const auto& p : reads) n += p.find(folder) != std::string::npos;
    return n;
}

std::set<std::string> names(const std::vector<Observation>& obs, CounterKind kind) {
    std::set<std::string> out;
    for (const auto& [name, c] : counters_by_name(obs, kind)) out.insert(name);
    return out;
}

std::set<std::string> of_tier(const std::set<std::string>& all_names, sources::CounterTier tier) {
    std::set<std::string> out;
    for (const auto& n : all_names) {
        if (sources::counter_tier(CounterKind::pma, n) == tier) out.insert(n);
    }
    return out;
}

// Every counter of `root`'s tree read from its files, by port and name.
std::map<std::pair<PortRef, std::string>, CounterSample> file_counters(const std::string& root) {
    std::map<std::pair<PortRef, std::string>, CounterSample> out;
    for (const auto& c : all<CounterSample>(sample_all(*source_at(root)))) {
        out[{c.port, c.name}] = c;
    }
    return out;
}

// A source over `root` with both counter methods on fakes: a kernel whose statistics are the
// files of every hw_counters/ of the tree, and a PMA answering from `pma` (at first `port`'s
// counters/ files, by name), with a manual MAD clock; the tree has one InfiniBand port, the
// PMA's. Reads go through a FailingReader that keeps their paths.
class MethodsBed {
public:
    MethodsBed(const std::string& root, const PortRef& port, sources::SourceSettings s) {
        namespace fs = std::filesystem;
        uint32_t index = 0;
        for (const auto& dev : fs::directory_iterator(root + "/class/infiniband")) {
            auto& device = kernel.devices[dev.path().filename().string()];
            device.index = ++index;
            for (const auto& p : fs::directory_iterator(dev.path() / "ports")) {
                if (!fs::exists(p.path() / "hw_counters")) continue;
                std::vector<netlink::NlCounter> stats;
                for (const auto& [name, v] : files_of((p.path() / "hw_counters").string())) {
                    if (name != "lifespan") stats.push_back({name, v});
                }
                device.ports[static_cast<uint32_t>(std::stoul(p.path().filename().string()))] =
                    stats;
            }
        }
        const std::string dir =
            root + "/class/infiniband/" + port.device + "/ports/" + std::to_string(port.port);
        pma.values = files_of(dir + "/counters");
        CounterReaders readers;
        readers.hw = std::make_unique<netlink::NetlinkHwCounterReader>(
            [this]() -> Result<netlink::NlTransport> { return kernel.transport(); });
        readers.pma = std::make_unique<mad::LocalPmaReader>(
            [this](const std::string&, uint32_t) -> Result<std::unique_ptr<mad::MadTransport>> {
                auto t = std::make_unique<mad::test::AnsweringTransport>();
                t->answer = [this](mad::Bytes req) -> std::optional<std::vector<uint8_t>> {
                    if (pma_lost) return std::nullopt;
                    return pma.answer(req);
                };
                transport = t.get();
                return std::unique_ptr<mad::MadTransport>(std::move(t));
            },
            mad::LocalPmaReader::Options{.clock = [this] {
                return transport ? transport->now : std::chrono::steady_clock::time_point{};
            }});
        auto reader = std::make_unique<FailingReader>();
        files = reader.get();
        s.sysfs_root = root;
        src = std::make_unique<SysfsSource>(s, std::move(reader), std::move(readers));
    }

    std::vector<Observation> poll(Duration t) {
        files->reads.clear();
        sources::VectorSink sink;
        src->poll(at(t), sink);
        EXPECT_TRUE(all<SampleError>(sink.observations).empty());
        return sink.observations;
    }

    // MADs of one attribute sent so far.
    unsigned sent(uint16_t attr_id) const {
        unsigned n = 0;
        if (transport) {
            for (const auto& m : transport->sent) n += mad::get16(m, 16) == attr_id;
        }
        return n;
    }

    test::FakeRdmaNetlink kernel;
    mad::test::PmaPort pma;
    bool pma_lost = false;
    mad::test::AnsweringTransport* transport = nullptr;
    FailingReader* files = nullptr;
    std::unique_ptr<SysfsSource> src;
};

sources::SourceSettings tiers(Duration fast, Duration slow) {
    sources::SourceSettings s;
    s.counter_interval = fast;
    s.slow_counter_interval = slow;
    s.pkey_interval = seconds(600);
    return s;
}

TEST(SysfsCounterMethodsTiers, AFastPassIsOnePortCountersMadAndNoNetlink) {
    const std::string root = fixture("mlx5-ib");
    const PortRef port{"mlx5_0", 1};
    MethodsBed bed(root, port, tiers(seconds(1), seconds(5)));
    const auto by_files = file_counters(root);
    const std::set<std::string> pma_all = names(sample_all(*source_at(root)), CounterKind::pma);
    const std::string both =
        "hw_counters/ by netlink on 1 of 1 port; counters/ by mad on 1 of 1 port";

    // Between passes the port counts a symbol error (fast tier) and data (slow tier).
    const std::set<std::string> moving{"symbol_error", "port_xmit_data"};
    for (int t = 0; t <= 5; ++t) {
        const unsigned pc = bed.sent(mad::attr::port_counters);
        const unsigned ext = bed.sent(mad::attr::port_counters_ext);
        const unsigned stats = bed.kernel.stat_requests;
        if (t > 0) {
            for (const auto& name : moving) ++bed.pma.values[name];
        }
        auto obs = bed.poll(seconds(t));
        const bool slow = t % 5 == 0;
        EXPECT_EQ(bed.sent(mad::attr::port_counters), pc + 1) << "t=" << t;
        EXPECT_EQ(bed.sent(mad::attr::port_counters_ext), ext + (slow ? 1 : 0)) << "t=" << t;
        EXPECT_EQ(bed.kernel.stat_requests, stats + (slow ? 1 : 0)) << "t=" << t;
        // Every value came through a method: no counter file was read.
        EXPECT_EQ(reads_under(bed.files->reads, "/counters/"), 0u) << "t=" << t;
        EXPECT_EQ(reads_under(bed.files->reads, "/hw_counters/"), 0u) << "t=" << t;
        // A slow pass reports every counter; a fast pass the counters of the fast tier that
        // moved, though PortCounters also carried the 32-bit data counters (one moved) and
        // port_xmit_wait.
        EXPECT_EQ(names(obs, CounterKind::pma),
                  slow ? pma_all : std::set<std::string>{"symbol_error"})
            << "t=" << t;
        EXPECT_EQ(names(obs, CounterKind::hw).size(), slow ? 18u : 0u) << "t=" << t;
        for (const auto& c : all<CounterSample>(obs)) {
            const auto& f = by_files.at({c.port, c.name});
            EXPECT_EQ(c.value, moving.contains(c.name) ? f.value + t : f.value) << c.name;
            EXPECT_EQ(c.width, f.width) << c.name;
        }
        // A fast pass does not touch hw_counters/: the status keeps what the last slow one said.
        EXPECT_EQ(only<SourceStatus>(obs).reason, both) << "t=" << t;
        EXPECT_EQ(figure(*bed.src, "sysfs_hw_counters_netlink_ports"), 1);
        EXPECT_EQ(figure(*bed.src, "sysfs_counters_mad_ports"), 1);
    }
    EXPECT_EQ(bed.sent(mad::attr::class_port_info), 1u);
}

// Intervals that are not multiples of each other make passes of the slow tier alone: PortCounters
// is still asked (port_xmit_wait lives there), its error counters are not emitted.
TEST(SysfsCounterMethodsTiers, ASlowOnlyPassEmitsNoFastCounter) {
    const std::string root = fixture("mlx5-ib");
    MethodsBed bed(root, {"mlx5_0", 1}, tiers(seconds(2), seconds(3)));
    const std::set<std::string> pma_all = names(sample_all(*source_at(root)), CounterKind::pma);
    bed.poll(seconds(0));
    bed.poll(seconds(2));  // fast only; the next fast pass is due at 4
    const unsigned pc = bed.sent(mad::attr::port_counters);
    const unsigned ext = bed.sent(mad::attr::port_counters_ext);
    auto obs = bed.poll(seconds(3));  // slow due, fast not
    EXPECT_EQ(names(obs, CounterKind::pma), of_tier(pma_all, sources::CounterTier::slow));
    EXPECT_TRUE(names(obs, CounterKind::pma).contains("port_xmit_wait"));
    EXPECT_EQ(names(obs, CounterKind::hw).size(), 18u);
    EXPECT_EQ(bed.sent(mad::attr::port_counters), pc + 1);
    EXPECT_EQ(bed.sent(mad::attr::port_counters_ext), ext + 1);
    EXPECT_EQ(reads_under(bed.files->reads, "/counters/"), 0u);
}

// mlx4_0 port 1 of the mlx4-i40iw tree: a PMA whose counters are the files', the data and packet
// counters at their 64-bit values (counters_ext/), as ConnectX-3's PMA keeps them.
void set_mlx4_pma(MethodsBed& bed, const std::string& root) {
    const std::string dir = root + "/class/infiniband/mlx4_0/ports/1";
    for (const auto& [file, v] : files_of(dir + "/counters_ext")) {
        bed.pma.values[std::string(legacy_counter_name(file))] = v;
    }
}

TEST(SysfsCounterMethodsTiers, Mlx4ExtendedPmaValuesStandForCountersExt) {
    const std::string root = fixture("mlx4-i40iw");
    MethodsBed bed(root, {"mlx4_0", 1}, tiers(seconds(1), seconds(15)));
    set_mlx4_pma(bed, root);
    const auto by_files = file_counters(root);
    auto obs = bed.poll(seconds(0));
    size_t mlx4 = 0;
    for (const auto& c : all<CounterSample>(obs)) {
        const auto& f = by_files.at({c.port, c.name});
        EXPECT_EQ(c.value, f.value) << c.name;
        EXPECT_EQ(c.width, f.width) << c.name;
        mlx4 += c.port.device == "mlx4_0";
    }
    EXPECT_EQ(mlx4, 21u) << "13 of counters/ and the 8 of counters_ext/";
    EXPECT_EQ(counters_by_name(obs, CounterKind::pma).at("port_xmit_data").value, 48318382080u);
    EXPECT_EQ(counters_by_name(obs, CounterKind::pma).at("port_xmit_data").width, 64);
    EXPECT_EQ(reads_under(bed.files->reads, "mlx4_0/ports/1/counters_ext/"), 0u);
    EXPECT_EQ(reads_under(bed.files->reads, "mlx4_0/ports/1/counters/"), 0u);
    // The iWARP RNIC has no PMA: not asked, not counted.
    EXPECT_EQ(only<SourceStatus>(obs).reason,
              "hw_counters/ by netlink on 1 of 1 port; counters/ by mad on 1 of 1 port");
    // A fast pass: one PortCounters MAD, counters_ext/ not even listed; of the counters that
    // moved, only the fast tier's reported.
    const unsigned ext = bed.sent(mad::attr::port_counters_ext);
    ++bed.pma.values["link_downed"];
    ++bed.pma.values["port_xmit_data"];
    auto fast = bed.poll(seconds(1));
    EXPECT_FALSE(names(fast, CounterKind::pma).contains("port_xmit_data"));
    EXPECT_TRUE(names(fast, CounterKind::pma).contains("link_downed"));
    EXPECT_EQ(bed.sent(mad::attr::port_counters_ext), ext);
    EXPECT_EQ(reads_under(bed.files->reads, "counters_ext"), 0u);
}

// A PMA without the extended width answers the data counters from PortCounters, 32 bits
// saturated: those never stand for a counters_ext/ file, which is read instead.
TEST(SysfsCounterMethodsTiers, Mlx4PmaWithoutExtendedWidthLeavesCountersExtToItsFiles) {
    const std::string root = fixture("mlx4-i40iw");
    MethodsBed bed(root, {"mlx4_0", 1}, tiers(seconds(1), seconds(15)));
    set_mlx4_pma(bed, root);
    bed.pma.capability_mask = mad::kPmaXmitWait;
    const auto by_files = file_counters(root);
    auto obs = bed.poll(seconds(0));
    for (const auto& c : all<CounterSample>(obs)) {
        const auto& f = by_files.at({c.port, c.name});
        EXPECT_EQ(c.value, f.value) << c.name;
        EXPECT_EQ(c.width, f.width) << c.name;
    }
    EXPECT_EQ(counters_by_name(obs, CounterKind::pma).at("port_xmit_data").value, 48318382080u);
    EXPECT_EQ(reads_under(bed.files->reads, "mlx4_0/ports/1/counters_ext/"), 8u);
    EXPECT_EQ(reads_under(bed.files->reads, "mlx4_0/ports/1/counters/"), 0u);
    EXPECT_EQ(bed.sent(mad::attr::port_counters_ext), 0u);
}

// The PMA stops answering half way (and is asked again at the P_Key cadence): the files take
// over with the same names, widths and values, so the engine counts on with no reset, no rebase
// and no total going back, on the fast and the slow tier alike.
TEST(SysfsCounterMethodsTiers, AMethodChangeMovesNoTotal) {
    test::TempTree tree;
    tree.add_fixture("mlx4-i40iw");
    const std::string ext_file =
        tree.path() + "/class/infiniband/mlx4_0/ports/1/counters_ext/port_xmit_data_64";
    const std::string err_file =
        tree.path() + "/class/infiniband/mlx4_0/ports/1/counters/port_xmit_discards";
    auto s = tiers(seconds(1), seconds(2));
    s.pkey_interval = seconds(10);
    MethodsBed bed(tree.path(), {"mlx4_0", 1}, s);
    set_mlx4_pma(bed, tree.path());
    auto engine = engine::make_default_engine();
    const uint64_t step = 3000000000ULL;  // more than 32 bits hold, every second
    std::map<std::string, uint64_t> before;
    std::map<std::string, uint8_t> widths;
    for (int t = 0; t <= 24; ++t) {
        const uint64_t xmit = 48318382080ULL + step * static_cast<uint64_t>(t);
        const uint64_t discards = 12 + static_cast<uint64_t>(t);
        std::ofstream(ext_file) << xmit << "\n";
        std::ofstream(err_file) << discards << "\n";
        bed.pma.values["port_xmit_data"] = xmit;
        bed.pma.values["port_xmit_discards"] = discards;
        bed.pma_lost = t >= 5 && t < 15;  // from t=15 the PMA answers; tried again at t=20
        auto obs = bed.poll(seconds(t));
        const bool by_mad = t < 5 || t >= 20;
        EXPECT_EQ(only<SourceStatus>(obs).reason.find("counters/ by mad on 1 of 1 port") !=
                      std::string::npos,
                  by_mad)
            << "t=" << t << ": " << only<SourceStatus>(obs).reason;
        for (const auto& o : obs) engine->consume(o);
        engine->advance(at(seconds(t)));
        for (const auto& d : engine->snapshot()->devices) {
            for (const auto& p : d.ports) {
                for (const auto& c : p.counters) {
                    EXPECT_EQ(c.resets, 0u) << c.name << " t=" << t;
                    EXPECT_EQ(c.wraps, 0u) << c.name << " t=" << t;
                    EXPECT_FALSE(c.lower_bound) << c.name << " t=" << t;
                    // The width never changed, so the tracker never took a new baseline.
                    auto w = widths.emplace(p.ref.to_string() + " " + c.name, c.width).first;
                    EXPECT_EQ(c.width, w->second) << c.name << " t=" << t;
                    auto& last = before[p.ref.to_string() + " " + c.name];
                    EXPECT_GE(c.total, last) << c.name << " t=" << t;
                    last = c.total;
                }
            }
        }
    }
    EXPECT_EQ(before.at("mlx4_0:1 port_xmit_data"), 48318382080ULL + step * 24);
    EXPECT_EQ(before.at("mlx4_0:1 port_xmit_discards"), 12u + 24u);
}

}  // namespace
}  // namespace rdmadiag::sysfs
