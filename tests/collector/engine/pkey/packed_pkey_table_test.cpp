#include "collector/engine/pkey/packed_pkey_table.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::engine::pkey {
namespace {

PKeyTable table(std::vector<uint16_t> keys, std::vector<uint16_t> unreadable = {}) {
    PKeyTable t;
    t.keys = std::move(keys);
    t.unreadable = std::move(unreadable);
    return t;
}

TEST(PackedPKeyTable, UnpacksToTheTableItWasMadeFrom) {
    std::vector<uint16_t> keys(128, 0);
    keys[0] = 0xffff;
    keys[1] = 0x8001;
    keys[5] = 0x0002;
    for (const auto& t : {table(keys), table(keys, {3, 7}), table({}), table({0, 0, 0}),
                          table({0x8000, 0, 0x7fff}), table({0, 0}, {0, 1})}) {
        const PackedPKeyTable p(t);
        EXPECT_EQ(p.unpack(), t);
        EXPECT_TRUE(p.holds(t));
        EXPECT_EQ(p.slots(), t.keys.size());
        EXPECT_EQ(p.used(), t.used());
    }
}

TEST(PackedPKeyTable, TellsEveryDifference) {
    const PKeyTable base = table({0xffff, 0x8001, 0, 0});
    const PackedPKeyTable p(base);
    EXPECT_FALSE(p.holds(table({0xffff, 0x8001, 0})));          // shorter
    EXPECT_FALSE(p.holds(table({0xffff, 0x8001, 0, 0, 0})));    // longer, only zeros added
    EXPECT_FALSE(p.holds(table({0xffff, 0x8001, 0, 0x8002})));  // a key past the stored ones
    EXPECT_FALSE(p.holds(table({0xffff, 0x0001, 0, 0})));       // membership
    EXPECT_FALSE(p.holds(table({0xffff, 0x8001, 0, 0}, {2})));  // a slot unreadable
    EXPECT_TRUE(p.holds(table({0xffff, 0x8001, 0, 0})));
    EXPECT_EQ(p, PackedPKeyTable(table({0xffff, 0x8001, 0, 0})));
    EXPECT_NE(p, PackedPKeyTable(table({0xffff, 0x8001, 0})));
    EXPECT_NE(p, PackedPKeyTable(table({0xffff, 0x8001, 0, 0}, {3})));
}

}  // namespace
}  // namespace rdmadiag::engine::pkey
