// The MAD source's GID views on the simulated subnet (ibsim + opensm, run under umad2sim by
// tests/beds/ibsim/with-bed, where this program is Hca1), local scope: GID 0 of the sma view is
// PortInfo.GidPrefix and the port GUID as smpquery reads them, the prefix opensm programs. opensm
// takes its subnet prefix from its configuration only at start, so the test starts it again with
// another `subnet_prefix` (ibsim keeps running) and sees both views follow: the port's (sma) and
// the SA's (sm). A sysfs tree naming the same device and port stands for a kernel GID cache that
// did not follow; both sources' observations go through the default engine. Run directly without
// a bed, every test skips.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "collector/engine/default/default_engine.hpp"
#include "collector/sources/mad/mad_options.hpp"
#include "collector/sources/mad/mad_source.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "tests/collector/sources/mad/ibsim_bed.hpp"
#include "tests/collector/sources/sysfs/temp_tree.hpp"
#include "tests/support/source_options.hpp"

namespace rdmadiag::mad {
namespace {

using namespace ibsim_bed;
using std::chrono::seconds;

constexpr uint64_t kDefaultPrefix = 0xfe80000000000000ull;  // opensm's, with no configuration
constexpr uint64_t kOtherPrefix = 0xfec0000000000001ull;

// A hex field of smpquery's answer ("GidPrefix:.......................0xfe80000000000000").
std::optional<uint64_t> smpquery_field(const std::string& what, uint32_t lid,
                                       const std::string& field) {
    std::istringstream in(run("smpquery " + what + " " + std::to_string(lid)));
    const std::regex row("^" + field + R"(:\.*(0x[0-9a-fA-F]+)$)");
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, row)) return std::stoull(m[1], nullptr, 16);
    }
    return std::nullopt;
}

// One local-scope poll, as `rdmadiag serve --source.mad` makes it.
struct LocalRead {
    std::vector<Observation> obs;

    std::string device() const {
        for (const auto& o : obs) {
            if (const auto* d = std::get_if<DeviceInfo>(&o.body)) return d->device;
        }
        return {};
    }
    const GidTableSample* gids(const PortRef& port, GidView view) const {
        for (const auto& o : obs) {
            const auto* g = std::get_if<GidTableSample>(&o.body);
            if (g && g->port == port && g->view == view) return g;
        }
        return nullptr;
    }
    std::vector<uint32_t> ports() const {
        std::vector<uint32_t> out;
        for (const auto& o : obs) {
            const auto* g = std::get_if<GidTableSample>(&o.body);
            if (g && g->view == GidView::sma) out.push_back(g->port.port);
        }
        return out;
    }
    std::optional<uint32_t> lid(const PortRef& port) const {
        for (const auto& o : obs) {
            const auto* s = std::get_if<PortStateSample>(&o.body);
            if (s && s->port == port) return s->lid;
        }
        return std::nullopt;
    }
    std::string errors() const {
        std::string text;
        for (const auto& o : obs) {
            if (const auto* e = std::get_if<SampleError>(&o.body))
                text += "\n  " + e->subject + ": " + e->message;
        }
        return text;
    }
};

// The local scope as `rdmadiag serve --source.mad` runs it, with opensm's default SM_Key so that
// the SA is asked too. One source (one umad port) for the whole test, as the daemon keeps it:
// umad2sim's receiver dereferences a null queue when an answer arrives for an agent already
// unregistered (`__receiver` in umad2sim.c), which a late answer to a closed port's MAD would be.
std::unique_ptr<sources::Source> local_source() {
    sources::SourceSettings settings;
    settings.extra = {{"mad.sm_key", "0x1"}};
    auto source = make_mad_source(::rdmadiag::test::resolved(settings, "mad", mad_options()));
    EXPECT_TRUE(source.ok());
    return source.ok() ? std::move(*source) : nullptr;
}

LocalRead read_local(sources::Source& source, TimePoint now) {
    sources::VectorSink sink;
    source.poll(now, sink);
    return LocalRead{std::move(sink.observations)};
}

// Each port's sma view is one GID, GID 0, of the prefix and port GUID smpquery reads at the
// port's LID, and the prefix is `prefix`; the sm view (the SA's PortInfoRecord and
// GUIDInfoRecords) says the same. ibsim holds no alias GUIDs and opensm assigns none.
void expect_views_hold(const LocalRead& read, uint64_t prefix) {
    const std::string device = read.device();
    ASSERT_FALSE(device.empty());
    ASSERT_EQ(read.ports(), (std::vector<uint32_t>{1, 2})) << "Hca1 has two ports";
    for (uint32_t port : read.ports()) {
        const PortRef ref{device, port};
        SCOPED_TRACE(ref.to_string());
        const auto lid = read.lid(ref);
        ASSERT_TRUE(lid.has_value());
        const auto port_guid = smpquery_field("nodeinfo", *lid, "PortGuid");
        const auto port_prefix = smpquery_field("portinfo", *lid, "GidPrefix");
        ASSERT_TRUE(port_guid && port_prefix) << "smpquery at LID " << *lid;
        EXPECT_EQ(*port_prefix, prefix);
        const GidTableSample* sma = read.gids(ref, GidView::sma);
        ASSERT_NE(sma, nullptr);
        ASSERT_EQ(sma->table.entries.size(), 1u);
        const GidEntry& gid0 = sma->table.entries[0];
        EXPECT_EQ(gid0.index, 0);
        EXPECT_EQ(gid0.type, GidType::ib);
        EXPECT_EQ(gid0.gid, Gid::from_parts(*port_prefix, *port_guid)) << gid0.gid.to_string();
        EXPECT_TRUE(sma->table.complete()) << read.errors();
        const GidTableSample* sm = read.gids(ref, GidView::sm);
        ASSERT_NE(sm, nullptr) << read.errors();
        EXPECT_EQ(sm->table, sma->table);
    }
}

std::string sysfs_guid(uint64_t guid) {
    const std::string hex = format_guid(guid).substr(2);  // 16 digits
    return hex.substr(0, 4) + ":" + hex.substr(4, 4) + ":" + hex.substr(8, 4) + ":" +
           hex.substr(12, 4);
}

// A sysfs tree with one device named `device` (the mlx5-ib fixture's) whose port 1 has the node's
// and port's GUIDs and, in gids/0, the GID `gid0`.
void write_cache(const test::TempTree& tree, const std::string& device, uint64_t node_guid,
                 const Gid& gid0) {
    namespace fs = std::filesystem;
    tree.add_fixture("mlx5-ib");
    const fs::path devices = fs::path(tree.path()) / "class" / "infiniband";
    fs::rename(devices / "mlx5_0", devices / device);
    std::ofstream(devices / device / "node_guid") << sysfs_guid(node_guid) << "\n";
    std::ofstream(devices / device / "ports" / "1" / "gids" / "0") << gid0.to_string() << "\n";
}

class GidIbsim : public ::testing::Test {
protected:
    void SetUp() override {
        if (bed_dir() == nullptr)
            GTEST_SKIP() << "no ibsim bed (run through ctest: tests/beds/ibsim/with-bed)";
    }
};

TEST_F(GidIbsim, SmaViewFollowsTheSubnetPrefixTheSmSets) {
    const TimePoint t0 = TimePoint{} + seconds(1000);
    const auto source = local_source();
    ASSERT_NE(source, nullptr);
    const LocalRead before = read_local(*source, t0);
    expect_views_hold(before, kDefaultPrefix);
    if (HasFatalFailure()) return;
    const PortRef port1{before.device(), 1};
    const Gid cached = before.gids(port1, GidView::sma)->table.entries[0].gid;

    // The kernel's cache as it was: fe80:: and the port GUID, in a sysfs tree of the same name.
    test::TempTree tree;
    ASSERT_TRUE(tree.ok());
    uint64_t node_guid = 0;
    for (const auto& o : before.obs) {
        if (const auto* d = std::get_if<DeviceInfo>(&o.body)) node_guid = d->node_guid.value_or(0);
    }
    write_cache(tree, port1.device, node_guid, cached);

    const std::string conf = std::string(bed_dir()) + "/subnet-prefix.conf";
    std::ofstream(conf) << "subnet_prefix " << format_guid(kOtherPrefix) << "\n";
    bed_ctl("restart-sm -F " + conf);
    if (HasFatalFailure()) return;

    const TimePoint t1 = t0 + seconds(40);
    const LocalRead after = read_local(*source, t1);
    expect_views_hold(after, kOtherPrefix);
    if (HasFatalFailure()) return;
    const Gid now = after.gids(port1, GidView::sma)->table.entries[0].gid;
    EXPECT_EQ(now.interface_id(), cached.interface_id()) << "the port GUID stays";
    EXPECT_NE(now, cached);
    // Once more 31 s later, as the daemon's rounds go on: the cache stays behind for longer than
    // the 30 s a cache may take to follow.
    const TimePoint t2 = t1 + seconds(31);
    const LocalRead later = read_local(*source, t2);

    // The sysfs source reads the stale cache for the same port: GID 0 still has fe80::.
    sources::SourceSettings settings;
    settings.sysfs_root = tree.path();
    auto sysfs = sysfs::make_sysfs_source(settings);
    ASSERT_TRUE(sysfs.ok()) << sysfs.error().message;
    auto engine = engine::make_default_engine();
    std::vector<std::string> cache_gids;
    using Round = std::pair<TimePoint, const LocalRead*>;
    for (const auto& [t, mad] : {Round{t0, &before}, Round{t1, &after}, Round{t2, &later}}) {
        sources::VectorSink sink;
        (*sysfs)->poll(t, sink);
        for (const auto& o : sink.observations) {
            if (const auto* s = std::get_if<PortStateSample>(&o.body); s && s->port == port1)
                cache_gids = s->gids;
        }
        for (const auto& o : sink.observations) engine->consume(o);
        for (const auto& o : mad->obs) engine->consume(o);
        engine->advance(t);
    }
    ASSERT_FALSE(cache_gids.empty());
    EXPECT_EQ(cache_gids.front(), cached.to_string());
    EXPECT_NE(cache_gids.front(), now.to_string());

    // Both sources' readings are of one device and port in the engine.
    const auto snap = engine->snapshot();
    size_t named = 0;
    for (const DeviceSnapshot& d : snap->devices) {
        if (d.info.device != port1.device) continue;
        ++named;
        const bool has_port1 = std::any_of(d.ports.begin(), d.ports.end(),
                                           [](const PortSnapshot& p) { return p.ref.port == 1; });
        EXPECT_TRUE(has_port1);
    }
    EXPECT_EQ(named, 1u);

    // The cache held fe80:: for longer than its grace while the port holds the new prefix.
    const PortSnapshot* p1 = snap->find_port(port1);
    ASSERT_NE(p1, nullptr);
    EXPECT_EQ(p1->gids->coherence, GidCoherence::stale) << p1->gids->note;
    const auto stale =
        std::find_if(snap->findings.begin(), snap->findings.end(), [&](const Finding& f) {
            return f.rule == "gid.cache_stale" && f.subject.device == port1.device &&
                   f.subject.port == port1.port;
        });
    ASSERT_NE(stale, snap->findings.end());
    EXPECT_NE(stale->evidence.find("subnet prefix " + format_subnet_prefix(cached.prefix()) +
                                   " in the cache, " + format_subnet_prefix(now.prefix()) +
                                   " on the port"),
              std::string::npos)
        << stale->evidence;
}

}  // namespace
}  // namespace rdmadiag::mad
