#include "collector/sources/mad/mad_batch.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/collector/sources/mad/answering_transport.hpp"

namespace rdmadiag::mad {
namespace {

MadRequest port_info_at(uint16_t lid) {
    MadRequest r;
    r.target = "lid " + std::to_string(lid);
    r.addr = MadAddress{lid, 0, 0, 0};
    r.mad = build_lid_smp({Method::get, attr::port_info, 0, 0}, 0);
    return r;
}

TEST(MadBatch, HandlersRunInTheOrderTheRequestsWereAdded) {
    test::AnsweringTransport t;
    MadEngine engine = test::engine_on(t);
    MadBatch batch;
    std::vector<uint16_t> order;
    for (uint16_t lid : {7, 3, 5}) {
        batch.add(port_info_at(lid), [&order, lid](MadBatch::Answer a) {
            EXPECT_TRUE(a.ok());
            order.push_back(lid);
        });
    }
    EXPECT_EQ(batch.requests().size(), 3u);
    batch.run(engine);
    EXPECT_EQ(order, (std::vector<uint16_t>{7, 3, 5}));
    EXPECT_EQ(t.sent.size(), 3u);
}

TEST(MadBatch, ALostMadReachesItsHandlerAsAnError) {
    test::AnsweringTransport t;
    t.answer = [](Bytes) { return std::optional<std::vector<uint8_t>>(); };
    MadEngine engine = test::engine_on(t);
    MadBatch batch;
    std::optional<MadBatch::Answer> got;
    batch.add(port_info_at(4), [&got](MadBatch::Answer a) { got = std::move(a); });
    batch.run(engine);
    ASSERT_TRUE(got.has_value());
    EXPECT_FALSE(got->ok());
}

TEST(MadBatch, ARunEmptiesTheBatchAndAnEmptyRunSendsNothing) {
    test::AnsweringTransport t;
    MadEngine engine = test::engine_on(t);
    MadBatch batch;
    int calls = 0;
    batch.add(port_info_at(1), [&calls](MadBatch::Answer) { ++calls; });
    batch.run(engine);
    EXPECT_TRUE(batch.requests().empty());
    batch.run(engine);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(t.sent.size(), 1u);
    EXPECT_EQ(engine.stats().sent, 1u);
}

}  // namespace
}  // namespace rdmadiag::mad
