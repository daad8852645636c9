#include "collector/engine/partitions/partition_findings.hpp"

#include <gtest/gtest.h>

#include "collector/engine/partitions/partition_model.hpp"

namespace rdmadiag::partitions {
namespace {

// A fabric as a subnet sweep shows it: CA ports with their sma view, one switch's port 0.
struct Fabric {
    Snapshot snapshot;

    // ca<guid>:1 with port GUID `guid` holding `keys` in its sma view (or its device view only,
    // as a local port read through sysfs).
    void ca(uint64_t guid, std::vector<uint16_t> keys, PKeyView view = PKeyView::sma) {
        const std::string name = "ca" + std::to_string(guid);
        DeviceSnapshot d;
        d.info.device = name;
        d.info.node_type = "CA";
        d.info.node_guid = guid;
        d.info.node_desc = "node" + std::to_string(guid) + " HCA-1";
        PortSnapshot p;
        p.ref = PortRef{name, 1};
        p.info.port = p.ref;
        p.info.port_guid = guid;
        PKeyViewState v;
        v.view = view;
        v.table.keys = std::move(keys);
        p.pkeys.views.push_back(std::move(v));
        d.ports.push_back(std::move(p));
        snapshot.devices.push_back(std::move(d));
    }

    // Switch "sw" (GUID 0x5000, "leaf01") whose port N is cabled to CA `peers[N - 1]`'s port 1,
    // each with its PortInfo enforcement bits as given (nullopt: not read).
    struct Link {
        uint64_t ca;
        std::optional<bool> inbound, outbound;
    };
    void leaf(const std::vector<Link>& links) {
        DeviceSnapshot d;
        d.info.device = "sw";
        d.info.node_type = "switch";
        d.info.node_guid = 0x5000;
        d.info.node_desc = "leaf01";
        PortSnapshot p0;
        p0.ref = PortRef{"sw", 0};
        d.ports.push_back(p0);
        for (size_t i = 0; i < links.size(); ++i) {
            PortSnapshot p;
            p.ref = PortRef{"sw", static_cast<uint32_t>(i + 1)};
            p.info.port = p.ref;
            p.info.peer_node_guid = links[i].ca;
            p.info.peer_port = 1;
            p.info.partition_enforcement_inbound = links[i].inbound;
            p.info.partition_enforcement_outbound = links[i].outbound;
            d.ports.push_back(std::move(p));
        }
        snapshot.devices.push_back(std::move(d));
    }
};

struct Judged {
    engine::FindingBook book;
    std::vector<PortRef> refresh;
    Snapshot snapshot;
    PartitionModel model;

    void judge(const Fabric& fabric, std::string_view conf, PartitionSettings settings = {},
               double at_seconds = 0) {
        const auto intent = parse_partitions_conf(conf);
        snapshot = fabric.snapshot;
        model = build_partition_model(snapshot, &intent);
        model.intent->path = "partitions.conf";
        judge_without_intent(at_seconds, settings);
    }
    void judge_without_intent(double at_seconds, PartitionSettings settings = {}) {
        engine::Inventory inventory;
        const TimePoint now{std::chrono::seconds(static_cast<int64_t>(at_seconds))};
        engine::EngineContext ctx(now, book, inventory, refresh);
        judge_partitions(snapshot, model, settings, ctx);
    }
    std::vector<Finding> of(std::string_view rule) const {
        std::vector<Finding> out;
        for (const auto& f : book.active())
            if (f.rule == rule) out.push_back(f);
        return out;
    }
};

FindingSubject partition(uint16_t pkey) {
    FindingSubject s;
    s.pkey = pkey;
    return s;
}

TEST(PartitionFindings, MissingUnexpectedAndMismatchEachOncePerPartition) {
    Fabric f;
    f.ca(0x10, {0xffff, 0x8011});  // as intended
    f.ca(0x20, {0xffff});          // storage missing
    f.ca(0x30, {0xffff, 0x0011});  // storage limited, intended full
    f.ca(0x40, {0xffff, 0x8011});  // storage held, not intended
    Judged j;
    j.judge(f, "Default=0x7fff : ALL=full ;\nStorage=0x8011 : 0x10=full, 0x20=full, 0x30=full ;\n");

    const auto missing = j.of(kRuleMemberMissing);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing[0].subject, partition(0x0011));
    EXPECT_EQ(missing[0].subject.to_string(), "pkey 0x0011");
    EXPECT_EQ(missing[0].severity, Severity::warning);
    EXPECT_EQ(missing[0].evidence,
              "0x0011 (Storage): 1 of the 3 ports partitions.conf makes members does not hold it: "
              "node32 HCA-1:1 0x0000000000000020 (intended full; sma holds none)");
    EXPECT_NE(missing[0].advice.find("smpquery pkeys"), std::string::npos);

    const auto mismatch = j.of(kRuleMembershipMismatch);
    ASSERT_EQ(mismatch.size(), 1u);
    EXPECT_EQ(mismatch[0].subject, partition(0x0011));
    EXPECT_NE(mismatch[0].evidence.find("node48 HCA-1:1 0x0000000000000030 (intended full; sma "
                                        "holds limited)"),
              std::string::npos)
        << mismatch[0].evidence;

    const auto unexpected = j.of(kRuleUnexpectedMember);
    ASSERT_EQ(unexpected.size(), 1u);
    EXPECT_EQ(unexpected[0].evidence,
              "0x0011 (Storage): 1 port holds it that partitions.conf makes no member of it: "
              "node64 HCA-1:1 0x0000000000000040 (intended none; sma holds full)");
    EXPECT_EQ(j.book.active().size(), 3u) << "the default partition is held as intended";
}

TEST(PartitionFindings, LimitedMembersHeldFullAreAMismatch) {
    Fabric f;
    f.ca(0x10, {0xffff, 0x0022});
    f.ca(0x20, {0xffff, 0x8022});
    Judged j;
    j.judge(f, "Default=0x7fff : ALL=full ;\nCompute=0x22, defmember=limited : ALL_CAS ;\n");
    const auto mismatch = j.of(kRuleMembershipMismatch);
    ASSERT_EQ(mismatch.size(), 1u);
    EXPECT_NE(mismatch[0].evidence.find("1 port holds it with another membership"),
              std::string::npos);
    EXPECT_NE(mismatch[0].evidence.find("(intended limited; sma holds full)"), std::string::npos)
        << mismatch[0].evidence;
    EXPECT_TRUE(j.of(kRuleMemberMissing).empty());
    EXPECT_TRUE(j.of(kRuleUnexpectedMember).empty());
}

TEST(PartitionFindings, AKeyTheFileDoesNotDefineIsUnexpectedUnlessTheSmMayHaveMadeIt) {
    Fabric f;
    f.ca(0x10, {0xffff, 0x8042});
    Judged j;
    j.judge(f, "Default=0x7fff : ALL=full ;\n");
    const auto unexpected = j.of(kRuleUnexpectedMember);
    ASSERT_EQ(unexpected.size(), 1u);
    EXPECT_EQ(unexpected[0].subject, partition(0x0042));
    EXPECT_NE(unexpected[0].evidence.find("while partitions.conf does not define it"),
              std::string::npos);

    // A partition whose key the SM generates might be 0x0042: nothing outside the file is judged.
    Judged generated;
    generated.judge(f, "Default=0x7fff : ALL=full ;\nJobs : ALL_CAS ;\n");
    EXPECT_TRUE(generated.of(kRuleUnexpectedMember).empty());
}

TEST(PartitionFindings, ManyPortsMakeOneFindingNamingAFew) {
    Fabric f;
    std::string conf = "Default=0x7fff : ALL=full ;\nStorage=0x11 :";
    for (uint64_t g = 1; g <= 100; ++g) {
        f.ca(g, {0xffff});
        conf += (g == 1 ? " " : ", ") + std::to_string(g) + "=full";
    }
    conf += " ;\n";
    Judged j;
    PartitionSettings settings;
    settings.example_ports = 3;
    j.judge(f, conf, settings);
    const auto missing = j.of(kRuleMemberMissing);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(j.book.active().size(), 1u);
    const std::string& e = missing[0].evidence;
    EXPECT_EQ(
        e.rfind(
            "0x0011 (Storage): 100 of the 100 ports partitions.conf makes members do not hold it: "
            "node1 HCA-1:1 ",
            0),
        0u)
        << e;
    EXPECT_NE(e.find("node3 HCA-1:1"), std::string::npos);
    EXPECT_EQ(e.find("node4 HCA-1:1"), std::string::npos) << "only three ports are named";
    EXPECT_EQ(e.substr(e.size() - 13), "; and 97 more");
}

TEST(PartitionFindings, ABadLineCostsOnlyItselfAndUnknownGuidsRaiseNothing) {
    Fabric f;
    f.ca(0x10, {0xffff});
    Judged j;
    j.judge(f,
            "Default=0x7fff : ALL=full ;\n"
            "this line is not a partition\n"
            "Storage=0x11 : 0x10=full, 0xdead=full ;\n"
            "Broken=0xZZ : ALL ;\n");
    ASSERT_TRUE(j.model.intent);
    ASSERT_EQ(j.model.intent->issues.size(), 2u);
    EXPECT_EQ(j.model.intent->issues[0].line, 2u);
    EXPECT_TRUE(j.model.intent->issues[0].skipped);
    EXPECT_EQ(j.model.intent->issues[1].line, 4u);
    // The statement after the bad line still counts: 0x10 misses storage.
    const auto missing = j.of(kRuleMemberMissing);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_NE(missing[0].evidence.find("1 of the 1 port "), std::string::npos)
        << "0xdead names no port, so it is no member anyone could miss: " << missing[0].evidence;
    EXPECT_EQ(j.model.unresolved,
              (std::vector<std::string>{"line 3: no port has GUID 0x000000000000dead"}));
    EXPECT_EQ(j.book.active().size(), 1u);
}

TEST(PartitionFindings, APortReadOnlyThroughItsDeviceIsJudgedThere) {
    Fabric f;
    f.ca(0x10, {0xffff}, PKeyView::device);
    Judged j;
    j.judge(f, "Default=0x7fff : ALL=full ;\nStorage=0x11 : ALL_CAS=full ;\n");
    const auto missing = j.of(kRuleMemberMissing);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_NE(missing[0].evidence.find("(intended full; device holds none)"), std::string::npos)
        << missing[0].evidence;
}

TEST(PartitionFindings, LimitedMembersBehindSwitchPortsThatDoNotEnforce) {
    Fabric f;
    for (uint64_t g : {0x10, 0x20, 0x30, 0x40, 0x50}) f.ca(g, {0xffff, 0x0011});
    f.leaf({{0x10, true, true},             // enforcing both ways
            {0x20, false, true},            // not inbound
            {0x30, true, false},            // not outbound
            {0x40, false, false},           // a full member: not this rule
            {0x50, std::nullopt, false}});  // bits not read: not judged
    Judged j;
    j.judge(f,
            "Default=0x7fff : ALL=full ;\n"
            "Storage=0x11 : 0x10=limited, 0x20=limited, 0x30=limited, 0x40=full, 0x50=limited ;\n");
    const auto off = j.of(kRuleEnforcementOff);
    ASSERT_EQ(off.size(), 1u);
    EXPECT_EQ(off[0].subject.to_string(), "pkey 0x0011");
    EXPECT_EQ(off[0].evidence,
              "0x0011 (Storage): 2 switch ports face limited members of it without enforcing "
              "partitions: leaf01:2 (inbound off, outbound on) facing node32 HCA-1:1 "
              "0x0000000000000020, leaf01:3 (inbound on, outbound off) facing node48 HCA-1:1 "
              "0x0000000000000030");
    EXPECT_NE(off[0].advice.find("part_enforce"), std::string::npos);
    EXPECT_NE(off[0].advice.find("smpquery portinfo"), std::string::npos);

    // Enforcement switched on: the finding clears.
    Fabric fixed;
    for (uint64_t g : {0x10, 0x20, 0x30, 0x40, 0x50}) fixed.ca(g, {0xffff, 0x0011});
    fixed.leaf({{0x10, true, true},
                {0x20, true, true},
                {0x30, true, true},
                {0x40, false, false},
                {0x50, std::nullopt, false}});
    j.judge(fixed,
            "Default=0x7fff : ALL=full ;\n"
            "Storage=0x11 : 0x10=limited, 0x20=limited, 0x30=limited, 0x40=full, 0x50=limited ;\n",
            {}, 60);
    EXPECT_TRUE(j.of(kRuleEnforcementOff).empty());
}

TEST(PartitionFindings, FindingsClearWhenThePortsHoldWhatTheFileSays) {
    Fabric f;
    f.ca(0x10, {0xffff});
    Judged j;
    const char* conf = "Default=0x7fff : ALL=full ;\nStorage=0x11 : ALL_CAS=full ;\n";
    j.judge(f, conf);
    ASSERT_EQ(j.of(kRuleMemberMissing).size(), 1u);

    Fabric fixed;
    fixed.ca(0x10, {0xffff, 0x8011});
    j.judge(fixed, conf, {}, 30);
    EXPECT_TRUE(j.book.active().empty());
    ASSERT_EQ(j.book.history().size(), 1u);
    EXPECT_EQ(j.book.history()[0].rule, kRuleMemberMissing);
    EXPECT_EQ(j.book.history()[0].cleared, TimePoint{std::chrono::seconds(30)});
}

TEST(PartitionFindings, WithoutAnIntentNothingIsJudgedAndEarlierFindingsClear) {
    Fabric f;
    f.ca(0x10, {0xffff, 0x8042});
    Judged j;
    j.judge(f, "Default=0x7fff : ALL=full ;\n");
    ASSERT_EQ(j.book.active().size(), 1u);
    j.snapshot = f.snapshot;
    j.model = build_partition_model(j.snapshot, nullptr);
    j.judge_without_intent(10);
    EXPECT_TRUE(j.book.active().empty());
}

}  // namespace
}  // namespace rdmadiag::partitions
