#include "collector/sources/mad/mad_source.hpp"
#include "collector/sources/mad/mad_options.hpp"
#include "tests/support/source_options.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace rdmadiag::mad {
namespace {

TEST(MadSource, OptionsFromExtra) {
    sources::SourceSettings s;
    s.extra = {{"mad.scope", "subnet"}, {"mad.ca", "mlx5_0"},    {"mad.port", "2"},
               {"mad.sm_key", "0x1"},   {"mad.timeout", "50ms"}, {"mad.retries", "4"},
               {"mad.concurrency", "8"}};
    auto o = parse_mad_options(::rdmadiag::test::resolved(s, "mad", mad_options()));
    ASSERT_TRUE(o.ok()) << o.error().message;
    EXPECT_TRUE(o->subnet);
    EXPECT_EQ(o->ca, "mlx5_0");
    EXPECT_EQ(o->port, 2);
    EXPECT_EQ(o->sm_key, 1u);
    EXPECT_EQ(o->engine.timeout, std::chrono::milliseconds(50));
    EXPECT_EQ(o->engine.retries, 4u);
    EXPECT_EQ(o->engine.per_target, 8u);
}

TEST(MadSource, DefaultsAreLocalWithNoSmKey) {
    auto o = parse_mad_options(::rdmadiag::test::resolved({}, "mad", mad_options()));
    ASSERT_TRUE(o.ok());
    EXPECT_FALSE(o->subnet);
    EXPECT_FALSE(o->sm_key.has_value());
    const MadSourceOptions defaults;
    EXPECT_EQ(o->engine.timeout, defaults.engine.timeout)
        << "the declared defaults are the source's";
    EXPECT_EQ(o->engine.retries, defaults.engine.retries);
    EXPECT_EQ(o->engine.per_target, defaults.engine.per_target);
    EXPECT_EQ(o->engine.in_flight, defaults.engine.in_flight);
    EXPECT_EQ(o->subnet_intervals.discovery, defaults.subnet_intervals.discovery);
    EXPECT_EQ(o->subnet_intervals.counters, defaults.subnet_intervals.counters);
}

TEST(MadSource, BadOptionsAreConfigurationErrors) {
    for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{{"mad.scope", "fabric"},
                                                                        {"mad.port", "x"},
                                                                        {"mad.sm_key", "0xzz"},
                                                                        {"mad.timeout", "0ms"},
                                                                        {"mad.retries", "-1"},
                                                                        {"mad.concurrency", "0"}}) {
        sources::SourceSettings s;
        s.extra[k] = v;
        auto r = sources::resolve_source_options("mad", mad_options(), s);
        ASSERT_FALSE(r.ok()) << k << "=" << v;
        EXPECT_EQ(r.error().message.rfind("mad source: " + k + " must be ", 0), 0u)
            << r.error().message;
    }
}

TEST(MadSource, AShardSplitsASubnetOnly) {
    sources::SourceSettings s;
    s.extra = {{"mad.shard", "1/2"}};
    auto local = sources::resolve_source_options("mad", mad_options(), s);
    ASSERT_FALSE(local.ok());
    EXPECT_EQ(local.error().message,
              "mad source: mad.shard splits a subnet: it needs mad.scope=subnet");
    s.extra["mad.scope"] = "subnet";
    auto o = parse_mad_options(::rdmadiag::test::resolved(s, "mad", mad_options()));
    ASSERT_TRUE(o.ok()) << o.error().message;
    EXPECT_EQ(o->shard, (SweepShard{0, 2})) << "1/2 is the first of two parts";
    s.extra["mad.shard"] = "3/2";
    EXPECT_FALSE(sources::resolve_source_options("mad", mad_options(), s).ok());
}

TEST(MadSource, WithoutAUmadDeviceItSaysWhyAndReportsDown) {
    if (std::getenv("BED_DIR") != nullptr)
        GTEST_SKIP() << "running on the ibsim bed: a umad device is there";
    auto src = make_mad_source(sources::SourceSettings{});
    ASSERT_TRUE(src.ok());
    EXPECT_EQ((*src)->name(), "mad");
    auto a = (*src)->availability();
    if (a.available) GTEST_SKIP() << "this machine has a umad device";
    EXPECT_NE(a.reason.find("umad"), std::string::npos) << a.reason;
    sources::VectorSink sink;
    (*src)->poll(TimePoint{}, sink);
    ASSERT_EQ(sink.observations.size(), 1u);
    const auto& st = std::get<SourceStatus>(sink.observations[0].body);
    EXPECT_FALSE(st.up);
    EXPECT_FALSE(st.reason.empty());
}

}  // namespace
}  // namespace rdmadiag::mad
