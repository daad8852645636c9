// The local PMA counter reader on the simulated subnet (ibsim + opensm, run under umad2sim by
// tests/beds/ibsim/with-bed, where this program is Hca1): its counters/ values for Hca1 port 1,
// through a real umad port with the PMA agent only, against perfquery of the same port (the
// basic and the extended counters) and against values set through ibsim's console. umad2sim's
// own sysfs tree has no counters/ folder, so perfquery stands for the files: the kernel's sysfs
// shows the same PMA fields. Run directly without a bed, every test skips.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "collector/sources/mad/local_pma_reader.hpp"
#include "collector/sources/mad/umad_transport.hpp"
#include "tests/collector/sources/mad/ibsim_bed.hpp"

namespace rdmadiag::mad {
namespace {

using Values = std::map<std::string, uint64_t>;
using ibsim_bed::run;

// perfquery [-x] of the local port 1, by field name.
Values perfquery(bool extended) {
    std::istringstream in(run(std::string("perfquery") + (extended ? " -x" : "")));
    Values values;
    std::string line;
    static const std::regex row(R"(^(\w+):\.*(\d+)$)");
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, row)) values[m[1]] = std::stoull(m[2]);
    }
    return values;
}

void console(const std::string& command) {
    const char* ctl = std::getenv("RDMADIAG_BED_CTL");
    ASSERT_NE(ctl, nullptr);
    ASSERT_EQ(std::system((std::string(ctl) + " console '" + command + "'").c_str()), 0);
}

// sysfs counters/ names and the perfquery fields they show; the data and packet counters are
// compared separately (every MAD counts in them).
const std::map<std::string, std::string> kErrorFields{
    {"symbol_error", "SymbolErrorCounter"},
    {"link_error_recovery", "LinkErrorRecoveryCounter"},
    {"link_downed", "LinkDownedCounter"},
    {"port_rcv_errors", "PortRcvErrors"},
    {"port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors"},
    {"port_rcv_switch_relay_errors", "PortRcvSwitchRelayErrors"},
    {"port_xmit_discards", "PortXmitDiscards"},
    {"port_xmit_constraint_errors", "PortXmitConstraintErrors"},
    {"port_rcv_constraint_errors", "PortRcvConstraintErrors"},
    {"local_link_integrity_errors", "LocalLinkIntegrityErrors"},
    {"excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors"},
    {"VL15_dropped", "VL15Dropped"},
    {"port_xmit_wait", "PortXmitWait"},
};
const std::map<std::string, std::string> kTrafficFields{
    {"port_xmit_data", "PortXmitData"},
    {"port_rcv_data", "PortRcvData"},
    {"port_xmit_packets", "PortXmitPkts"},
    {"port_rcv_packets", "PortRcvPkts"},
    {"unicast_xmit_packets", "PortUnicastXmitPkts"},
    {"unicast_rcv_packets", "PortUnicastRcvPkts"},
    {"multicast_xmit_packets", "PortMulticastXmitPkts"},
    {"multicast_rcv_packets", "PortMulticastRcvPkts"},
};

class LocalPmaIbsim : public ::testing::Test {
protected:
    void SetUp() override {
        if (std::getenv("BED_DIR") == nullptr)
            GTEST_SKIP() << "no ibsim bed (run through ctest: tests/beds/ibsim/with-bed)";
        auto names = local_ca_names();
        ASSERT_TRUE(names.ok()) << names.error().message;
        ca_ = names->front();
        auto ca = local_ca(ca_);
        ASSERT_TRUE(ca.ok()) << ca.error().message;
        for (const auto& p : ca->ports) {
            if (p.port == 1)
                facts_ = {static_cast<PortState>(p.state), LinkLayer::infiniband, p.lid};
        }
        ASSERT_EQ(facts_.state, PortState::active);
        ASSERT_NE(facts_.lid.value_or(0), 0u);
    }

    Values read(sources::CounterTiers due = sources::CounterTiers::all()) {
        Values out;
        auto got = reader_.read({ca_, 1}, facts_, due);
        EXPECT_TRUE(got.ok()) << got.error().message;
        if (got) {
            for (const auto& v : *got) out[v.name] = v.value;
        }
        return out;
    }

    std::string ca_;
    sources::PortFacts facts_;
    LocalPmaReader reader_{
        [](const std::string& ca, uint32_t port) -> Result<std::unique_ptr<MadTransport>> {
            auto t = RDMADIAG_TRY(UmadTransport::open_one(ca, static_cast<int>(port), Agent::pma));
            return std::unique_ptr<MadTransport>(std::move(t));
        }};
};

TEST_F(LocalPmaIbsim, ValuesEqualPerfqueryOfTheSamePort) {
    const Values ext_before = perfquery(true);
    const Values mine = read();
    const Values basic = perfquery(false);
    const Values ext_after = perfquery(true);
    ASSERT_FALSE(basic.empty()) << "perfquery printed nothing";
    // ibsim's PMA has the extended width (CapMask 0x1200): every file of the extended set.
    EXPECT_EQ(mine.size(), kErrorFields.size() + kTrafficFields.size());
    for (const auto& [name, field] : kErrorFields) {
        ASSERT_TRUE(mine.contains(name)) << name;
        EXPECT_EQ(mine.at(name), basic.at(field)) << name;
    }
    // MADs are traffic: ours came after the first perfquery and before the last.
    for (const auto& [name, field] : kTrafficFields) {
        ASSERT_TRUE(mine.contains(name)) << name;
        EXPECT_LE(ext_before.at(field), mine.at(name)) << name;
        EXPECT_LE(mine.at(name), ext_after.at(field)) << name;
    }
    EXPECT_GT(mine.at("port_xmit_packets"), 0u);
}

// The fast tier alone (one PortCounters MAD): exactly the fast error counters, equal to
// perfquery's.
TEST_F(LocalPmaIbsim, TheFastTierIsTheErrorCountersOfPerfquery) {
    const Values mine = read({.fast = true, .slow = false});
    const Values basic = perfquery(false);
    ASSERT_FALSE(basic.empty()) << "perfquery printed nothing";
    size_t fast = 0;
    for (const auto& [name, field] : kErrorFields) {
        if (sources::counter_tier(CounterKind::pma, name) != sources::CounterTier::fast) {
            EXPECT_FALSE(mine.contains(name)) << name;
            continue;
        }
        ++fast;
        ASSERT_TRUE(mine.contains(name)) << name;
        EXPECT_EQ(mine.at(name), basic.at(field)) << name;
    }
    EXPECT_EQ(mine.size(), fast);
    for (const auto& [name, field] : kTrafficFields) EXPECT_FALSE(mine.contains(name)) << name;
}

TEST_F(LocalPmaIbsim, ValuesSetThroughTheConsoleAreRead) {
    console("PerformanceSet \"Hca1\"[1] PortCounters.PortRcvConstraintErrors=5");
    console("PerformanceSet \"Hca1\"[1] PortCounters.PortXmitConstraintErrors=7");
    console("PerformanceSet \"Hca1\"[1] PortCounters.SymbolErrorCounter=300");
    console("PerformanceSet \"Hca1\"[1] PortCounters.LinkDownedCounter=2");
    Values mine;
    for (int i = 0; i < 50; ++i) {  // the console is asynchronous: read until the last one landed
        mine = read();
        if (mine["link_downed"] == 2) break;
    }
    EXPECT_EQ(mine["port_rcv_constraint_errors"], 5u);
    EXPECT_EQ(mine["port_xmit_constraint_errors"], 7u);
    EXPECT_EQ(mine["symbol_error"], 300u);
    EXPECT_EQ(mine["link_downed"], 2u);
    const Values basic = perfquery(false);
    for (const auto& [name, field] : kErrorFields)
        EXPECT_EQ(mine.at(name), basic.at(field)) << name;
}

}  // namespace
}  // namespace rdmadiag::mad
