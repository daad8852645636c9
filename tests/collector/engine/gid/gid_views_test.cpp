#include "collector/engine/gid/gid_views.hpp"

#include <gtest/gtest.h>

#include "tests/collector/engine/gid/gid_scenario.hpp"

namespace rdmadiag::test {
namespace {

const PortRef kPort{"mlx5_0", 1};
constexpr const char* kOld = "fe80:0000:0000:0000:0002:c903:0000:1235";
constexpr const char* kNew = "fec0:0000:0000:0000:0002:c903:0000:1235";

TEST(GidViews, CacheThatHoldsWhatThePortHoldsIsCoherent) {
    GidScenario s;
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(1, kPort, GidView::sma, {ib_entry(0, kOld)});
    EXPECT_EQ(s.port(kPort).coherence, GidCoherence::coherent);
    EXPECT_EQ(s.count("gid.cache_stale"), 0u);
    ASSERT_EQ(s.port(kPort).views.size(), 2u);
    EXPECT_EQ(s.port(kPort).views[0].view, GidView::cache);
    EXPECT_EQ(s.port(kPort).views[1].source, "mad");
}

TEST(GidViews, PrefixChangedOnThePortWithoutEventMakesTheCacheStaleAfterTheGrace) {
    GidScenario s;
    s.watch(0, "mlx5_0");
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(0, kPort, GidView::sma, {ib_entry(0, kOld)});
    s.view(10, kPort, GidView::sma, {ib_entry(0, kNew)});
    s.view(20, kPort, GidView::cache, {ib_entry(0, kOld)});
    EXPECT_EQ(s.port(kPort).coherence, GidCoherence::pending);
    EXPECT_FALSE(s.active("gid.cache_stale"));
    s.advance(39);
    EXPECT_FALSE(s.active("gid.cache_stale"));
    s.advance(40);
    auto f = s.active("gid.cache_stale");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::critical);
    EXPECT_EQ(f->subject.device, "mlx5_0");
    EXPECT_EQ(f->subject.port, 1u);
    EXPECT_EQ(f->since, at(10));
    EXPECT_NE(f->evidence.find("subnet prefix fe80:0000:0000:0000 in the cache, "
                               "fec0:0000:0000:0000 on the port"),
              std::string::npos)
        << f->evidence;
    EXPECT_NE(f->evidence.find("no GID_CHANGE delivered since"), std::string::npos);
    EXPECT_NE(f->advice.find("CLIENT_REREGISTER"), std::string::npos);
    EXPECT_EQ(s.port(kPort).coherence, GidCoherence::stale);
    ASSERT_EQ(s.port(kPort).last_changes.size(), 1u);
    EXPECT_EQ(s.port(kPort).last_changes[0].view, GidView::sma);
    EXPECT_EQ(s.port(kPort).last_changes[0].added.at(0).gid, gid_of(kNew));

    // The cache follows: the finding clears, and each view keeps its own last change.
    s.view(50, kPort, GidView::cache, {ib_entry(0, kNew)});
    EXPECT_FALSE(s.active("gid.cache_stale"));
    EXPECT_EQ(s.port(kPort).coherence, GidCoherence::coherent);
    ASSERT_EQ(s.port(kPort).last_changes.size(), 2u);
    EXPECT_EQ(s.port(kPort).last_changes[0].view, GidView::cache);
    EXPECT_EQ(s.port(kPort).last_changes[0].time, at(50));
    EXPECT_EQ(s.port(kPort).last_changes[1].view, GidView::sma);
    ASSERT_NE(s.port(kPort).last_change(GidView::sma), nullptr);
    EXPECT_EQ(s.port(kPort).last_change(GidView::sma)->removed.at(0).gid, gid_of(kOld));
}

TEST(GidViews, EvidenceSaysWhenAGidChangeArrivedAndTheCacheDidNotFollow) {
    GidScenario s;
    s.watch(0, "mlx5_0");
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(10, kPort, GidView::sma, {ib_entry(0, kNew)});
    s.event(11, kPort, AsyncEventType::gid_change);
    s.event(12, kPort, AsyncEventType::client_reregister);
    s.view(45, kPort, GidView::cache, {ib_entry(0, kOld)});
    auto f = s.active("gid.cache_stale");
    ASSERT_TRUE(f);
    EXPECT_NE(f->evidence.find("a GID_CHANGE was delivered at"), std::string::npos) << f->evidence;
    EXPECT_EQ(f->evidence.find("last CLIENT_REREGISTER: never"), std::string::npos);
    const auto p = s.port(kPort);
    EXPECT_EQ(p.gid_change_events, 1u);
    EXPECT_EQ(p.client_reregister_events, 1u);
    EXPECT_EQ(p.last_gid_change, at(11));
}

TEST(GidViews, WithoutAnEventSourceTheEvidenceSaysTheEventsAreNotWatched) {
    GidScenario s;
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(0, kPort, GidView::sma, {ib_entry(0, kNew)});
    s.advance(31);
    auto f = s.active("gid.cache_stale");
    ASSERT_TRUE(f);
    EXPECT_NE(f->evidence.find("no source watches mlx5_0:1's async events"), std::string::npos);
}

TEST(GidViews, AnAliasGuidMissingFromTheCacheIsADifference) {
    GidScenario s;
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(0, kPort, GidView::sma,
           {ib_entry(0, kOld), ib_entry(1, "fe80:0000:0000:0000:0002:c903:0000:9999")});
    s.advance(31);
    auto f = s.active("gid.cache_stale");
    ASSERT_TRUE(f);
    EXPECT_NE(f->evidence.find("index 1: cache none"), std::string::npos) << f->evidence;
}

TEST(GidViews, AViewNotReadForLongNoLongerJudges) {
    GidScenario s;
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(0, kPort, GidView::sma, {ib_entry(0, kNew)});
    s.advance(31);
    ASSERT_TRUE(s.active("gid.cache_stale"));
    s.view(300, kPort, GidView::cache, {ib_entry(0, kOld)});
    ASSERT_TRUE(s.active("gid.cache_stale"));
    s.advance(602);
    EXPECT_FALSE(s.active("gid.cache_stale"));
    EXPECT_EQ(s.port(kPort).coherence, GidCoherence::unknown);
    EXPECT_NE(s.port(kPort).note.find("last read over MADs at"), std::string::npos);
}

TEST(GidViews, WithoutAnSmaViewTheCacheIsNotJudged) {
    GidScenario s;
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.advance(100);
    EXPECT_EQ(s.port(kPort).coherence, GidCoherence::unknown);
    EXPECT_NE(s.port(kPort).note.find("the mad source reads one"), std::string::npos);
    EXPECT_EQ(s.count("gid.cache_stale"), 0u);
}

const PortRef kRoce{"rxe0", 1};
constexpr const char* kDefault = "fe80:0000:0000:0000:5054:00ff:fe12:3456";
constexpr const char* kV4 = "0000:0000:0000:0000:0000:ffff:c000:0201";
constexpr const char* kV6 = "2001:0db8:0000:0000:0000:0000:0000:0001";

TEST(GidViews, RoceAddressWithoutItsGidIsMissingAfterTheGrace) {
    GidScenario s;
    s.link_layer(0, kRoce, LinkLayer::ethernet);
    s.view(0, kRoce, GidView::cache, {roce_entry(0, kDefault, "dum0")});
    s.view(0, kRoce, GidView::netdev,
           {roce_entry(0, kDefault, "dum0", GidType::unknown),
            roce_entry(1, kV4, "dum0", GidType::unknown)});
    EXPECT_EQ(s.port(kRoce).coherence, GidCoherence::pending);
    s.advance(31);
    auto f = s.active("roce.gid_missing");
    ASSERT_TRUE(f);
    EXPECT_NE(f->evidence.find(gid_of(kV4).to_string() + " on dum0"), std::string::npos)
        << f->evidence;
    EXPECT_EQ(s.count("roce.gid_stale"), 0u);
    EXPECT_EQ(s.count("gid.cache_stale"), 0u);

    // The kernel adds it, one entry per RoCE type: the type does not matter.
    s.view(40, kRoce, GidView::cache,
           {roce_entry(0, kDefault, "dum0"), roce_entry(1, kV4, "dum0", GidType::roce_v1),
            roce_entry(2, kV4, "dum0", GidType::roce_v2)});
    EXPECT_FALSE(s.active("roce.gid_missing"));
    EXPECT_EQ(s.port(kRoce).coherence, GidCoherence::coherent);
}

TEST(GidViews, RoceGidWhoseAddressIsGoneIsStaleButOnlyForCoveredNetdevs) {
    GidScenario s;
    s.view(
        0, kRoce, GidView::cache,
        {roce_entry(0, kDefault, "dum0"), roce_entry(1, kV6, "dum0"), roce_entry(2, kV4, "vlan7")});
    // The netdev view covers dum0 only: vlan7's GID is not judged.
    s.view(0, kRoce, GidView::netdev, {roce_entry(0, kDefault, "dum0", GidType::unknown)});
    s.advance(31);
    auto f = s.active("roce.gid_stale");
    ASSERT_TRUE(f);
    EXPECT_NE(f->evidence.find(gid_of(kV6).to_string()), std::string::npos);
    EXPECT_EQ(f->evidence.find("vlan7"), std::string::npos) << f->evidence;
    EXPECT_EQ(s.count("roce.gid_missing"), 0u);
}

TEST(GidViews, OneGidTwiceInATableIsADuplicate) {
    GidScenario s;
    s.view(
        0, kRoce, GidView::cache,
        {roce_entry(0, kDefault, "dum0"), roce_entry(1, kV4, "dum0"), roce_entry(5, kV4, "dum0")});
    auto f = s.active("gid.duplicate");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->subject.index, 5u);
    EXPECT_NE(f->evidence.find("at indexes 1 and 5"), std::string::npos) << f->evidence;
    // v1 and v2 of one address are two entries, not a duplicate.
    s.view(10, kRoce, GidView::cache,
           {roce_entry(0, kDefault, "dum0"), roce_entry(1, kV4, "dum0", GidType::roce_v1),
            roce_entry(2, kV4, "dum0", GidType::roce_v2)});
    EXPECT_FALSE(s.active("gid.duplicate"));
}

TEST(GidViews, OnePortGuidOnTwoPortsIsADuplicateOnBoth) {
    GidScenario s;
    const PortRef a{"guid:0x0000000000000001", 1};
    const PortRef b{"guid:0x0000000000000002", 1};
    const PortRef c{"guid:0x0000000000000003", 1};
    s.view(0, a, GidView::sma, {ib_entry(0, "fe80::2:c903:0:1")});
    s.view(0, b, GidView::sma, {ib_entry(0, "fe80::2:c903:0:1")});
    s.view(0, c, GidView::sma, {ib_entry(0, "fe80::2:c903:0:3")});
    s.snapshot();
    EXPECT_EQ(s.count("gid.duplicate"), 2u);
    auto f = s.active("gid.duplicate", a.device);
    ASSERT_TRUE(f);
    EXPECT_NE(f->evidence.find("is also held by guid:0x0000000000000002:1"), std::string::npos)
        << f->evidence;
    s.view(10, b, GidView::sma, {ib_entry(0, "fe80::2:c903:0:2")});
    s.snapshot();
    EXPECT_EQ(s.count("gid.duplicate"), 0u);
}

TEST(GidViews, OnePortSeenThroughSysfsAndASweepIsNotADuplicate) {
    GidScenario s;
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(0, PortRef{"guid:0x0002c90300001234", 1}, GidView::sma, {ib_entry(0, kOld)});
    s.snapshot();
    EXPECT_EQ(s.count("gid.duplicate"), 0u);
}

TEST(GidViews, PortsOfASweepThatDisagreeOnThePrefixAreOneFinding) {
    GidScenario s;
    for (uint32_t n = 1; n <= 5; ++n) {
        const auto g = Gid::from_parts(0xfec0000000000000ull, n);
        s.view(0, PortRef{"guid:0x000000000000000" + std::to_string(n), 1}, GidView::sma,
               {GidEntry{0, g, GidType::ib, {}}});
    }
    const PortRef odd{"guid:0x0000000000000009", 1};
    s.view(0, odd, GidView::sma, {ib_entry(0, "fe80::9")});
    s.snapshot();
    EXPECT_EQ(s.count("gid.prefix_mismatch"), 0u) << "within the grace";
    s.advance(61);
    s.snapshot();
    auto f = s.active("gid.prefix_mismatch");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->subject.device, "subnet:mad");
    EXPECT_NE(f->evidence.find("1 of 6 ports"), std::string::npos) << f->evidence;
    EXPECT_NE(f->evidence.find("guid:0x0000000000000009:1 fe80:0000:0000:0000"), std::string::npos);
    s.view(70, odd, GidView::sma, {GidEntry{0, Gid::from_parts(0xfec0000000000000ull, 9)}});
    s.snapshot();
    EXPECT_EQ(s.count("gid.prefix_mismatch"), 0u);
}

TEST(GidViews, APortAgainstItsOwnSmRecordNeedsNoMajority) {
    GidScenario s;
    s.view(0, kPort, GidView::sma, {ib_entry(0, kOld)});
    s.view(0, kPort, GidView::sm, {ib_entry(0, kNew)});
    s.advance(61);
    s.snapshot();
    auto f = s.active("gid.prefix_mismatch");
    ASSERT_TRUE(f);
    EXPECT_NE(f->evidence.find("the SM gives them"), std::string::npos) << f->evidence;
}

TEST(GidViews, TheSnapshotCarriesThePortsGidState) {
    GidScenario s;
    s.view(0, kPort, GidView::cache, {ib_entry(0, kOld)});
    s.view(0, kPort, GidView::sma, {ib_entry(0, kOld)});
    auto snap = s.snapshot();
    const auto* p = snap->find_port(kPort);
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(p->gids->views.size(), 2u);
    EXPECT_EQ(p->gids->coherence, GidCoherence::coherent);
    // A re-read that finds the same view confirms it and is no new generation.
    s.view(10, kPort, GidView::cache, {ib_entry(0, kOld)});
    EXPECT_EQ(s.port(kPort).views[0].confirmed, at(10));
    EXPECT_EQ(s.port(kPort).views[0].generation, 1u);
    EXPECT_TRUE(s.port(kPort).last_changes.empty());
}

}  // namespace
}  // namespace rdmadiag::test
