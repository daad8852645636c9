#include "collector/engine/pkey/pkey_views.hpp"

#include <gtest/gtest.h>

#include "collector/engine/engine.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag {
namespace {

using test::at;
using test::obs;

TEST(PKeyViews, GenerationRisesOnlyOnRealChange) {
    Engine e;
    e.add_module(std::make_unique<PKeyViews>());
    e.consume(obs(1, test::pkeys("mlx5_0", 1, {0xffff, 0x8001})));
    e.consume(obs(2, test::pkeys("mlx5_0", 1, {0xffff, 0x8001})));
    auto s = e.snapshot();
    const auto* v = s->find_port(PortRef{"mlx5_0", 1})->pkeys.find(PKeyView::device);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->generation, 1u);
    EXPECT_EQ(v->confirmed, at(2));
    e.consume(obs(3, test::pkeys("mlx5_0", 1, {0xffff, 0x0001})));
    s = e.snapshot();
    v = s->find_port(PortRef{"mlx5_0", 1})->pkeys.find(PKeyView::device);
    EXPECT_EQ(v->generation, 2u);
    EXPECT_EQ(v->changed, at(3));
    EXPECT_EQ(s->find_port(PortRef{"mlx5_0", 1})->pkeys.find(PKeyView::sma), nullptr);
}

}  // namespace
}  // namespace rdmadiag
