#include "cli/render/table_change_gate.hpp"

#include <gtest/gtest.h>

#include "collector/model/pkey.hpp"

namespace rdmadiag::cli::render {
namespace {

PKeyTable keys(std::vector<uint16_t> k) {
    PKeyTable t;
    t.keys = std::move(k);
    return t;
}

TEST(TableChangeGate, AFirstReadAndARereadAreNoChange) {
    TableChangeGate<PKeyView, PKeyTable> gate;
    const PortRef p{"mlx5_0", 1};
    EXPECT_FALSE(gate.changed(p, PKeyView::device, keys({0xffff})));
    EXPECT_FALSE(gate.changed(p, PKeyView::device, keys({0xffff})));
    EXPECT_TRUE(gate.changed(p, PKeyView::device, keys({0xffff, 0x8001})));
    EXPECT_FALSE(gate.changed(p, PKeyView::device, keys({0xffff, 0x8001})));
    // Back to a table seen before is a change too.
    EXPECT_TRUE(gate.changed(p, PKeyView::device, keys({0xffff})));
}

TEST(TableChangeGate, EachPortAndViewHasItsOwnLastTable) {
    TableChangeGate<PKeyView, PKeyTable> gate;
    EXPECT_FALSE(gate.changed(PortRef{"mlx5_0", 1}, PKeyView::device, keys({0xffff})));
    EXPECT_FALSE(gate.changed(PortRef{"mlx5_0", 1}, PKeyView::sma, keys({0x7fff})));
    EXPECT_FALSE(gate.changed(PortRef{"mlx5_0", 2}, PKeyView::device, keys({0x7fff})));
    EXPECT_TRUE(gate.changed(PortRef{"mlx5_0", 1}, PKeyView::sma, keys({0xffff})));
    EXPECT_FALSE(gate.changed(PortRef{"mlx5_0", 1}, PKeyView::device, keys({0xffff})));
}

}  // namespace
}  // namespace rdmadiag::cli::render
