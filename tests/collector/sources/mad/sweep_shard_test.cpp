#include "collector/sources/mad/sweep_shard.hpp"

#include <gtest/gtest.h>

#include <set>

#include "collector/sources/mad/mad_sweep.hpp"
#include "tests/collector/sources/mad/fake_fabric.hpp"

namespace rdmadiag::mad {
namespace {

TEST(SweepShard, ParsesKOfN) {
    auto s = parse_sweep_shard("2/3");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->index, 1u);
    EXPECT_EQ(s->count, 3u);
    EXPECT_EQ(s->to_string(), "2/3");
    for (const char* bad : {"0/3", "4/3", "3", "/3", "1/", "a/b", "1/0", "1/2000", "1/3x"}) {
        auto r = parse_sweep_shard(bad);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().message.find("K/N"), std::string::npos);
    }
}

TEST(SweepShard, EveryNodeHasExactlyOneShardAndTheShardsAreEven) {
    const unsigned n = 3;
    std::vector<unsigned> per_shard(n, 0);
    for (uint64_t guid = 0x0002c90300001000; guid < 0x0002c90300001000 + 30000; ++guid) {
        unsigned owners = 0;
        for (unsigned k = 0; k < n; ++k) {
            if (SweepShard{k, n}.owns(guid)) {
                ++owners;
                ++per_shard[k];
            }
        }
        ASSERT_EQ(owners, 1u) << std::hex << guid;
    }
    for (unsigned c : per_shard) {
        EXPECT_GT(c, 9500u);
        EXPECT_LT(c, 10500u);
    }
    EXPECT_TRUE(SweepShard{}.owns(42)) << "one shard owns everything";
}

TEST(SweepShard, ShardedSweepsTogetherReadEveryPortOnce) {
    const auto fabric_shape = test::FatTreeShape{8, 4, 6, 2};
    std::multiset<std::pair<uint64_t, uint8_t>> sharded;
    std::set<std::pair<uint64_t, uint8_t>> whole;
    for (unsigned k = 0; k <= 3; ++k) {
        test::FakeFabric fabric = test::fat_tree(fabric_shape);
        MadEngine engine(fabric, MadEngineOptions{}, [&fabric] { return fabric.now; });
        SweepOptions o{.sm_lid = fabric.sm_lid};
        if (k > 0) o.shard = SweepShard{k - 1, 3};
        const SubnetReading r = MadSweeper(engine, o).sweep_subnet();
        for (const auto& node : r.nodes) {
            for (const auto& p : node.ports) {
                if (!p.sma_pkeys) continue;
                if (k == 0)
                    whole.insert({node.info.node_guid, p.port});
                else
                    sharded.insert({node.info.node_guid, p.port});
            }
        }
    }
    EXPECT_EQ(whole.size(), test::port_count(test::fat_tree(fabric_shape)));
    EXPECT_EQ(sharded.size(), whole.size()) << "no port read twice, none left out";
    const std::set<std::pair<uint64_t, uint8_t>> distinct(sharded.begin(), sharded.end());
    EXPECT_EQ(distinct, whole);
}

}  // namespace
}  // namespace rdmadiag::mad
