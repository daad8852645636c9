#include "collector/engine/events/port_event_refresh.hpp"

#include <gtest/gtest.h>

#include "collector/engine/default/default_engine.hpp"
#include "tests/collector/engine/test_observations.hpp"

namespace rdmadiag::engine::events {
namespace {

AsyncEvent port_event(AsyncEventType type, std::optional<uint32_t> port) {
    AsyncEvent e;
    e.device = "mlx5_0";
    e.port = port;
    e.type = type;
    return e;
}

TEST(PortEventRefresh, EventsThatMoveAPortsAttributesAskForItToBeReadAgain) {
    for (auto type : {AsyncEventType::port_active, AsyncEventType::port_err,
                      AsyncEventType::lid_change, AsyncEventType::sm_change,
                      AsyncEventType::client_reregister, AsyncEventType::gid_change}) {
        auto e = make_default_engine();
        e->consume(test::obs(1, port_event(type, 2)));
        EXPECT_EQ(e->take_refresh_requests(), (std::vector<PortRef>{{"mlx5_0", 2}}))
            << to_string(type);
    }
}

TEST(PortEventRefresh, OtherEventsAskForNothing) {
    auto e = make_default_engine();
    e->consume(test::obs(1, port_event(AsyncEventType::cq_err, std::nullopt)));
    e->consume(test::obs(1, port_event(AsyncEventType::device_fatal, std::nullopt)));
    e->consume(test::obs(1, test::counter("mlx5_0", 1, "symbol_error", 3)));
    EXPECT_TRUE(e->take_refresh_requests().empty());
}

TEST(PortEventRefresh, AnEventWithoutAPortAsksForEveryPortOfItsDevice) {
    auto e = make_default_engine();
    e->consume(test::obs(1, port_event(AsyncEventType::sm_change, std::nullopt)));
    EXPECT_EQ(e->take_refresh_requests(), (std::vector<PortRef>{{"mlx5_0", 0}}));
}

}  // namespace
}  // namespace rdmadiag::engine::events
