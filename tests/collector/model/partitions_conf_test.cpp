#include "collector/model/partitions_conf.hpp"

#include <gtest/gtest.h>

#include <string>

namespace rdmadiag {
namespace {

MemberRule port(uint64_t guid, Membership m, uint32_t line) {
    return MemberRule{MemberSet::port, guid, m, line};
}

MemberRule set(MemberSet s, Membership m, uint32_t line) {
    return MemberRule{s, 0, m, line};
}

const PartitionIntent* find(const PartitionsConf& c, uint16_t pkey) {
    for (const auto& p : c.partitions) {
        if (p.pkey == pkey) return &p;
    }
    return nullptr;
}

std::string issues_text(const PartitionsConf& c) {
    std::string out;
    for (const auto& i : c.issues) {
        out +=
            std::to_string(i.line) + (i.skipped ? " skipped: " : " warning: ") + i.message + "\n";
    }
    return out;
}

// The examples of opensm's doc/partition-config.txt, read as opensm reads them.
TEST(PartitionsConf, TheDocumentedExamples) {
    const auto c = parse_partitions_conf(
        "Default=0x7fff : ALL, SELF=full ;\n"
        "NewPartition , ipoib : 0x123456=full, 0x3456789034=limi, 0x2134af2306 ;\n"
        "YetAnotherOne = 0x300 : SELF=full ;\n"
        "YetAnotherOne = 0x300 : ALL=limited ;\n");
    EXPECT_TRUE(c.issues.empty()) << issues_text(c);
    ASSERT_EQ(c.partitions.size(), 3u);

    const auto& d = c.partitions[0];
    EXPECT_EQ(d.name, "Default");
    EXPECT_EQ(d.pkey, kDefaultPartition);
    EXPECT_FALSE(d.implicit);
    EXPECT_EQ(d.members, (std::vector<MemberRule>{set(MemberSet::all, Membership::limited, 1),
                                                  set(MemberSet::self, Membership::full, 1)}));

    const auto& n = c.partitions[1];
    EXPECT_EQ(n.name, "NewPartition");
    EXPECT_EQ(n.pkey, std::nullopt) << "no P_Key: the SM generates one";
    EXPECT_TRUE(n.ipoib);
    EXPECT_EQ(n.members, (std::vector<MemberRule>{port(0x123456, Membership::full, 2),
                                                  port(0x3456789034, Membership::limited, 2),
                                                  port(0x2134af2306, Membership::limited, 2)}));

    // Two statements with one P_Key are one partition.
    const auto& y = c.partitions[2];
    EXPECT_EQ(y.pkey, 0x300);
    EXPECT_EQ(y.line, 3u);
    EXPECT_EQ(y.members, (std::vector<MemberRule>{set(MemberSet::self, Membership::full, 3),
                                                  set(MemberSet::all, Membership::limited, 4)}));
}

TEST(PartitionsConf, DefmemberAppliesToItsOwnStatementOnly) {
    const auto c = parse_partitions_conf(
        "ShareIO = 0x80 , defmember=full : 0x123451, 0x123452;\n"
        "# 0x123453, 0x123454 will be limited\n"
        "ShareIO = 0x80 : 0x123453, 0x123454, 0x123455=full;\n"
        "ShareIO = 0x80 , defmember=limited : 0x123456, 0x123458=full;\n"
        "ShareIO = 0x80 , defmember=both : 0x12345b, 0x12345c=limited;\n");
    EXPECT_TRUE(c.issues.empty()) << issues_text(c);
    const auto* p = find(c, 0x80);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->members, (std::vector<MemberRule>{
                              port(0x123451, Membership::full, 1),
                              port(0x123452, Membership::full, 1),
                              port(0x123453, Membership::limited, 3),
                              port(0x123454, Membership::limited, 3),
                              port(0x123455, Membership::full, 3),
                              port(0x123456, Membership::limited, 4),
                              port(0x123458, Membership::full, 4),
                              port(0x12345b, Membership::both, 5),
                              port(0x12345c, Membership::limited, 5),
                          }));
}

TEST(PartitionsConf, AStatementGoesOnOverLinesWithMulticastGroupsBetween) {
    const auto c = parse_partitions_conf(
        "Default=0x7fff,ipoib,mtu=5,rate=7:\n"
        "        mgid=ff12:401b::0707,sl=1 # random IPv4 group\n"
        "        mgid=ff12::1,sl=1,Q_Key=0xDEADBEEF,rate=3,mtu=2 # random group\n"
        "        0x10, 0x11=full,\n"
        "        ALL_SWITCHES=full;  Storage=0x8011: 0x20=full; # two on a line\n");
    EXPECT_TRUE(c.issues.empty()) << issues_text(c);
    const auto* d = find(c, kDefaultPartition);
    ASSERT_NE(d, nullptr);
    EXPECT_TRUE(d->ipoib);
    EXPECT_EQ(d->members, (std::vector<MemberRule>{
                              port(0x10, Membership::limited, 4), port(0x11, Membership::full, 4),
                              set(MemberSet::all_switches, Membership::full, 5)}));
    const auto* s = find(c, 0x0011);
    ASSERT_NE(s, nullptr) << "the membership bit of 0x8011 is not part of the partition's key";
    EXPECT_EQ(s->members, (std::vector<MemberRule>{port(0x20, Membership::full, 5)}));
}

TEST(PartitionsConf, WithoutADefaultRuleOpenSmMakesOne) {
    const auto c = parse_partitions_conf("Storage=0x8011 : 0x1=full;\n");
    ASSERT_EQ(c.partitions.size(), 2u);
    const auto& d = c.partitions[1];
    EXPECT_TRUE(d.implicit);
    EXPECT_EQ(d.pkey, kDefaultPartition);
    EXPECT_EQ(d.members, (std::vector<MemberRule>{set(MemberSet::all, Membership::limited, 0),
                                                  set(MemberSet::self, Membership::full, 0)}));
    EXPECT_TRUE(parse_partitions_conf("").partitions.front().implicit);
}

TEST(PartitionsConf, WordsMayBeAbbreviatedAsOpenSmAllows) {
    const auto c = parse_partitions_conf(
        "P=0x10, ip, def=f : A, ALL_C=l, ALL_S=b, ALL_R, SE=fu, N, 0x5=lim ;\n");
    EXPECT_TRUE(c.issues.empty()) << issues_text(c);
    const auto* p = find(c, 0x10);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->ipoib);
    EXPECT_EQ(p->members, (std::vector<MemberRule>{
                              set(MemberSet::all, Membership::full, 1),
                              set(MemberSet::all_cas, Membership::limited, 1),
                              set(MemberSet::all_switches, Membership::both, 1),
                              set(MemberSet::all_routers, Membership::full, 1),
                              set(MemberSet::self, Membership::full, 1),
                              port(0x5, Membership::limited, 1),
                          }));
}

TEST(PartitionsConf, NumbersAreReadAsCReadsThem) {
    const auto c = parse_partitions_conf(
        "Dec=32785 : 100=full ;\n"  // 0x8011, GUID 100
        "Oct=010 : 0x1 ;\n"         // 8
        "0x8012 : ALL ;\n"          // a definition that starts with a digit is the P_Key
        "Wide=0x18013 : ALL ;\n"    // opensm keeps 16 bits
        "Zero=0x8000 : ALL ;\n");   // no base: generated
    ASSERT_NE(find(c, 0x0011), nullptr);
    EXPECT_EQ(find(c, 0x0011)->members.front().guid, 100u);
    ASSERT_NE(find(c, 0x0008), nullptr);
    ASSERT_NE(find(c, 0x0012), nullptr);
    EXPECT_EQ(find(c, 0x0012)->name, "");
    ASSERT_NE(find(c, 0x0013), nullptr);
    EXPECT_EQ(c.partitions[4].name, "Zero");
    EXPECT_EQ(c.partitions[4].pkey, std::nullopt);
    ASSERT_EQ(c.issues.size(), 2u) << issues_text(c);
    EXPECT_EQ(c.issues[0].line, 4u);
    EXPECT_NE(c.issues[0].message.find("wider than 16 bits"), std::string::npos);
    EXPECT_EQ(c.issues[1].line, 5u);
    EXPECT_FALSE(c.issues[1].skipped);
}

TEST(PartitionsConf, ABadLineCostsOnlyItselfAndABadStatementOnlyItself) {
    const auto c = parse_partitions_conf(
        "Good=0x1 : 0x10 ;\n"                    // 1
        "this line means nothing\n"              // 2: no definition
        "Bad=0xZZ :\n"                           // 3: bad P_Key ...
        "   0x11, 0x12 ;\n"                      // 4: ... its ports go with it
        "Also=0x2 : 0x20, 0xnope, 0x21 ;\n"      // 5: one bad GUID
        "Flags=0x3, , ipoib : 0x30 ;\n"          // 6: an empty flag
        "After=0x4 : 0x40=full, 0x41=sorta ;\n"  // 7: unknown membership is limited
        "Odd=0x5, frobnicate : 0x50\n");         // 8: unknown flag; no ';' at the end
    EXPECT_EQ(issues_text(c),
              "2 skipped: no partition definition: expected 'Name=PKey[,flags] : ports ;' with "
              "its ':' on this line (line skipped)\n"
              "3 skipped: bad partition definition: '0xZZ' is not a P_Key (0x8001, or a decimal "
              "number) (statement skipped)\n"
              "5 skipped: bad port GUID '0xnope' (skipped)\n"
              "6 skipped: bad partition flags: an empty flag between commas (statement skipped)\n"
              "7 warning: unknown membership 'sorta' for 0x41: limited, as opensm assumes\n"
              "8 warning: unknown partition flag 'frobnicate' (ignored)\n"
              "8 warning: the last statement has no ';' (taken as ended by the file)\n");
    ASSERT_NE(find(c, 0x1), nullptr);
    EXPECT_EQ(find(c, 0x1)->members, (std::vector<MemberRule>{port(0x10, Membership::limited, 1)}));
    EXPECT_EQ(find(c, 0x2)->members, (std::vector<MemberRule>{port(0x20, Membership::limited, 5),
                                                              port(0x21, Membership::limited, 5)}));
    EXPECT_EQ(find(c, 0x3), nullptr);
    EXPECT_EQ(find(c, 0x4)->members, (std::vector<MemberRule>{port(0x40, Membership::full, 7),
                                                              port(0x41, Membership::limited, 7)}));
    EXPECT_EQ(find(c, 0x5)->members, (std::vector<MemberRule>{port(0x50, Membership::limited, 8)}));
    EXPECT_EQ(find(c, 0x11), nullptr);
}

TEST(PartitionsConf, EmptyListsAndNoneHaveNoMembers) {
    const auto c = parse_partitions_conf("Empty=0x10 : ;\nNobody=0x11 : NONE ;\n");
    EXPECT_TRUE(c.issues.empty()) << issues_text(c);
    EXPECT_TRUE(find(c, 0x10)->members.empty());
    EXPECT_TRUE(find(c, 0x11)->members.empty());
}

TEST(PartitionsConf, HostileTextIsReportedNeverACrash) {
    const std::string cases[] = {
        ";;;",
        ":",
        "=",
        ",,,:,,;",
        "=:=;",
        "x=:",
        std::string("A=0x1:\0ALL;", 11),
        std::string(100000, ':'),
        std::string(100000, ','),
        "A=0x1 : " + std::string(5000, 'f') + ";",
        "A=0x1:0xffffffffffffffffff;",
        "\n\n\n#;\n",
        "A=0x1:mgid",
        "A=0x1:mgid=;ALL;",
    };
    for (const auto& text : cases) {
        const auto c = parse_partitions_conf(text);
        EXPECT_FALSE(c.partitions.empty()) << "the default partition is always there";
    }
}

}  // namespace
}  // namespace rdmadiag
