// The shipped scenario partition-drift played end to end through the simulated fabric source and
// the default engine, on the scenario's own clock (the collector's runtime on a ManualClock, polled
// every 100 ms, no sleeps): the scenario's own partitions.conf is the intent, and each partition
// finding appears at the step that causes it, not before.

#include <gtest/gtest.h>

#include "collector/engine/partitions/partition_findings.hpp"
#include "tests/collector/sim/scenario_run.hpp"

namespace rdmadiag::sim {
namespace {

using namespace std::chrono_literals;
using sim::testing::t0;

constexpr uint16_t kStorage = 0x0011;

class PartitionDrift : public testing::ScenarioRun {
protected:
    void SetUp() override { start("partition-drift"); }

    const Finding* active(std::string_view rule) const {
        FindingSubject subject;
        subject.pkey = kStorage;
        return engine->findings().find(std::string(rule), subject);
    }

    // The partition findings active now, by rule.
    std::vector<std::string> partition_rules() const {
        std::vector<std::string> out;
        for (const auto& f : engine->findings().active()) {
            if (f.rule.starts_with("partition.")) out.push_back(f.rule);
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    // Expects `rule` to be raised by the step at `at`: absent just before, active from then on.
    const Finding* raised_at(std::string_view rule, Duration at) {
        run_to(at - 100ms);
        EXPECT_EQ(active(rule), nullptr) << rule << " before " << at.count();
        run_to(at);
        const Finding* f = active(rule);
        EXPECT_NE(f, nullptr) << rule << " at " << at.count();
        if (f != nullptr) {
            EXPECT_EQ(f->since, t0() + at) << rule;
        }
        return f;
    }

    static bool says(const Finding* f, std::string_view text) {
        return f != nullptr && f->evidence.find(text) != std::string::npos;
    }
};

TEST_F(PartitionDrift, EachFindingAppearsAtItsStep) {
    using namespace partitions;
    // 0s: the file is the scenario's; the SM has programmed nothing yet, so all six intended
    // members miss Storage.
    run_to(0s);
    const Finding* missing = active(kRuleMemberMissing);
    ASSERT_NE(missing, nullptr);
    EXPECT_EQ(missing->since, t0());
    EXPECT_TRUE(says(missing,
                     "0x0011 (Storage): 6 of the 6 ports partition-drift.scn makes "
                     "members do not hold it"))
        << missing->evidence;
    EXPECT_EQ(partition_rules(), std::vector<std::string>{std::string(kRuleMemberMissing)});

    // 10s: the SM's sm view changes first; the ports follow 100 ms later with PKEY_CHANGE, and
    // then nothing differs.
    run_to(10s);
    EXPECT_NE(active(kRuleMemberMissing), nullptr);
    run_to(10100ms);
    EXPECT_EQ(partition_rules(), std::vector<std::string>{});
    run_to(39900ms);
    EXPECT_EQ(partition_rules(), std::vector<std::string>{});

    // 40s: login01 gets 0x8011 behind the SM's back.
    const Finding* unexpected = raised_at(kRuleUnexpectedMember, 40s);
    EXPECT_TRUE(says(unexpected,
                     "1 port holds it that partition-drift.scn makes no member of it: "
                     "login01 HCA-1:1 0x0c42a10300e10001 (intended none; sma holds "
                     "full)"))
        << (unexpected ? unexpected->evidence : "");

    // 70s: node03 loses it.
    missing = raised_at(kRuleMemberMissing, 70s);
    EXPECT_TRUE(says(missing,
                     "1 of the 6 ports partition-drift.scn makes members does not hold "
                     "it: node03 HCA-1:1 0x0c42a10300c10003 (intended limited; sma "
                     "holds none)"))
        << (missing ? missing->evidence : "");

    // 100s: stor02 holds it limited where the file says full.
    const Finding* mismatch = raised_at(kRuleMembershipMismatch, 100s);
    EXPECT_TRUE(says(mismatch,
                     "stor02 HCA-1:1 0x0c42a10300d10002 (intended full; sma holds "
                     "limited)"))
        << (mismatch ? mismatch->evidence : "");

    // 130s: leaf01's port facing node01, a limited member, stops enforcing.
    const Finding* unenforced = raised_at(kRuleEnforcementOff, 130s);
    EXPECT_TRUE(says(unenforced,
                     "1 switch port faces a limited member of it without enforcing "
                     "partitions: leaf01:3 (inbound off, outbound off) facing node01 "
                     "HCA-1:1 0x0c42a10300c10001"))
        << (unenforced ? unenforced->evidence : "");

    // The end: all four stand, and the model counts the three differing members.
    run_to(160s);
    EXPECT_EQ(partition_rules(),
              (std::vector<std::string>{
                  std::string(kRuleEnforcementOff), std::string(kRuleMemberMissing),
                  std::string(kRuleMembershipMismatch), std::string(kRuleUnexpectedMember)}));
    const auto snap = engine->snapshot();
    ASSERT_NE(snap->partitions, nullptr);
    const PartitionModel& model = *snap->partitions;
    ASSERT_TRUE(model.intent.has_value());
    EXPECT_EQ(model.intent->path, "partition-drift.scn");
    EXPECT_EQ(model.intent->read, t0());
    EXPECT_TRUE(model.intent->issues.empty());
    EXPECT_TRUE(model.unresolved.empty());
    const Partition* storage = model.find(kStorage);
    ASSERT_NE(storage, nullptr);
    EXPECT_EQ(storage->name, "Storage");
    EXPECT_EQ(differences(model, *storage), 3u);
    // Intended: 2 full, 4 limited; held (sma): stor01 and login01 full, stor02 and three clients
    // limited.
    const auto& intent = storage->counts[static_cast<size_t>(MemberView::intent)];
    EXPECT_EQ(intent, (std::array<uint32_t, 3>{4, 2, 0}));
    const auto& sma = storage->counts[static_cast<size_t>(MemberView::sma)];
    EXPECT_EQ(sma, (std::array<uint32_t, 3>{4, 2, 0}));
    const Partition* def = model.find(0x7fff);
    ASSERT_NE(def, nullptr);
    EXPECT_EQ(differences(model, *def), 0u);
}

// A partitions.conf given to the collector takes the scenario's place: the fabric does not hand
// its own over, so the engine has one intent, the one asked for.
TEST(PartitionDriftIntent, AGivenFileTakesTheScenariosPlace) {
    for (const bool given : {false, true}) {
        sources::SourceSettings settings;
        settings.scenario = "partition-drift";
        if (given) {
            settings.options.set("partitions.conf", std::string("/etc/opensm/partitions.conf"),
                                 true);
        }
        auto f = make_simulated_fabric(settings);
        ASSERT_TRUE(f.ok()) << f.error().message;
        sources::VectorSink sink;
        (*f)->poll(t0(), sink);
        (*f)->poll(t0() + 200s, sink);
        std::vector<PartitionsConfText> handed;
        for (const auto& o : sink.observations) {
            if (const auto* t = std::get_if<PartitionsConfText>(&o.body)) {
                handed.push_back(*t);
                EXPECT_EQ(o.time, t0());
                EXPECT_EQ(o.source, "sim");
            }
        }
        if (given) {
            EXPECT_TRUE(handed.empty());
            continue;
        }
        ASSERT_EQ(handed.size(), 1u);
        EXPECT_EQ(handed[0].path, "partition-drift.scn");
        EXPECT_FALSE(handed[0].sm_port_guid.has_value());
        EXPECT_NE(handed[0].text.find("Storage=0x8011, ipoib :\n"), std::string::npos);
    }
}

}  // namespace
}  // namespace rdmadiag::sim
