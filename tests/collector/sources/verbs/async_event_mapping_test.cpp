#include "collector/sources/verbs/async_event_mapping.hpp"

#include <gtest/gtest.h>

#include "tests/collector/sources/verbs/ibv_event_codes.hpp"

namespace rdmadiag::verbs {
namespace {

using namespace test_codes;

TEST(AsyncEventMapping, CodesFollowIbvEventTypeOrder) {
    EXPECT_EQ(async_event_type_from_code(kCqErr), AsyncEventType::cq_err);
    EXPECT_EQ(async_event_type_from_code(kQpFatal), AsyncEventType::qp_fatal);
    EXPECT_EQ(async_event_type_from_code(kDeviceFatal), AsyncEventType::device_fatal);
    EXPECT_EQ(async_event_type_from_code(kPortActive), AsyncEventType::port_active);
    EXPECT_EQ(async_event_type_from_code(kPortErr), AsyncEventType::port_err);
    EXPECT_EQ(async_event_type_from_code(kLidChange), AsyncEventType::lid_change);
    EXPECT_EQ(async_event_type_from_code(kPkeyChange), AsyncEventType::pkey_change);
    EXPECT_EQ(async_event_type_from_code(kClientReregister), AsyncEventType::client_reregister);
    EXPECT_EQ(async_event_type_from_code(kGidChange), AsyncEventType::gid_change);
    EXPECT_EQ(async_event_type_from_code(kWqFatal), AsyncEventType::wq_fatal);
}

TEST(AsyncEventMapping, CodesOutsideTheKnownRangeAreUnknown) {
    EXPECT_EQ(async_event_type_from_code(-1), AsyncEventType::unknown);
    EXPECT_EQ(async_event_type_from_code(20), AsyncEventType::unknown);
    EXPECT_EQ(async_event_type_from_code(1000), AsyncEventType::unknown);
}

TEST(AsyncEventMapping, PortEventsCarryThePort) {
    const AsyncEvent ev = map_async_event("rxe0", RawAsyncEvent{kPkeyChange, 2});
    EXPECT_EQ(ev.device, "rxe0");
    EXPECT_EQ(ev.type, AsyncEventType::pkey_change);
    EXPECT_EQ(ev.port, 2u);
    EXPECT_FALSE(ev.element.has_value());
}

TEST(AsyncEventMapping, ElementEventsCarryTheElementNumber) {
    for (int code : {kCqErr, kQpFatal, kSrqErr, kWqFatal}) {
        const AsyncEvent ev = map_async_event("mlx5_0", RawAsyncEvent{code, 0x1234});
        EXPECT_EQ(ev.element, 0x1234u) << code;
        EXPECT_FALSE(ev.port.has_value()) << code;
    }
}

TEST(AsyncEventMapping, DeviceFatalAndUnknownCarryNeither) {
    for (int code : {kDeviceFatal, 77}) {
        const AsyncEvent ev = map_async_event("mlx5_0", RawAsyncEvent{code, 3});
        EXPECT_FALSE(ev.port.has_value()) << code;
        EXPECT_FALSE(ev.element.has_value()) << code;
    }
    EXPECT_EQ(map_async_event("d", RawAsyncEvent{77, 3}).type, AsyncEventType::unknown);
}

TEST(AsyncEventMapping, WhatEachEventReReads) {
    EXPECT_TRUE(event_rereads_port(AsyncEventType::port_err));
    EXPECT_TRUE(event_rereads_port(AsyncEventType::lid_change));
    EXPECT_FALSE(event_rereads_port(AsyncEventType::qp_fatal));
    EXPECT_FALSE(event_rereads_port(AsyncEventType::device_fatal));
    EXPECT_TRUE(event_rereads_pkeys(AsyncEventType::pkey_change));
    EXPECT_TRUE(event_rereads_pkeys(AsyncEventType::client_reregister));
    EXPECT_FALSE(event_rereads_pkeys(AsyncEventType::port_err));
    EXPECT_FALSE(event_rereads_pkeys(AsyncEventType::gid_change));
    EXPECT_TRUE(event_loses_device(AsyncEventType::device_fatal));
    EXPECT_FALSE(event_loses_device(AsyncEventType::port_err));
}

TEST(AsyncEventMapping, RateTextMatchesSysfs) {
    EXPECT_EQ(port_rate_text(2, 32), "100 Gb/sec (4X EDR)");
    EXPECT_EQ(port_rate_text(2, 4), "40 Gb/sec (4X QDR)");
    EXPECT_EQ(port_rate_text(1, 1), "2.5 Gb/sec (1X SDR)");
    EXPECT_EQ(port_rate_text(8, 1), "30 Gb/sec (12X SDR)");
    EXPECT_EQ(port_rate_text(2, 16), "56 Gb/sec (4X FDR)");
    EXPECT_EQ(port_rate_text(16, 128), "200 Gb/sec (2X NDR)");
    EXPECT_EQ(port_rate_text(1, 0), "2.5 Gb/sec (1X SDR)");  // unknown speed counts as SDR
    EXPECT_FALSE(port_rate_text(0, 32).has_value());
    EXPECT_FALSE(port_rate_text(3, 32).has_value());
}

TEST(AsyncEventMapping, PortAttributesBecomeAPortStateSample) {
    VerbsPortAttributes a;
    a.state = 4;
    a.phys_state = 5;
    a.link_layer = 1;
    a.active_width = 2;
    a.active_speed = 32;
    a.lid = 7;
    a.sm_lid = 1;
    a.lmc = 0;
    a.port_cap_flags = 0x2651e848;
    const PortStateSample s = port_state_sample(PortRef{"mlx5_0", 1}, a);
    EXPECT_EQ(s.port, (PortRef{"mlx5_0", 1}));
    EXPECT_EQ(s.state, PortState::active);
    EXPECT_EQ(s.phys_state, 5);
    EXPECT_EQ(s.phys_state_text, "LinkUp");
    EXPECT_EQ(s.link_layer, LinkLayer::infiniband);
    EXPECT_EQ(s.lid, 7u);
    EXPECT_EQ(s.sm_lid, 1u);
    EXPECT_EQ(s.rate, "100 Gb/sec (4X EDR)");
    EXPECT_EQ(s.cap_mask, 0x2651e848u);
}

TEST(AsyncEventMapping, OutOfRangePortValuesAreLeftOut) {
    VerbsPortAttributes a;
    a.state = 9;
    a.phys_state = 12;
    a.link_layer = 7;
    const PortStateSample s = port_state_sample(PortRef{"x", 1}, a);
    EXPECT_FALSE(s.state.has_value());
    EXPECT_EQ(s.phys_state, 12);
    EXPECT_FALSE(s.phys_state_text.has_value());
    EXPECT_EQ(s.link_layer, LinkLayer::unknown);
    EXPECT_FALSE(s.rate.has_value());
}

}  // namespace
}  // namespace rdmadiag::verbs
