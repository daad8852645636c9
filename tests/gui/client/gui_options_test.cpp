#include "gui/client/gui_options.hpp"

#include <gtest/gtest.h>

#include "gui/client/api_feed.hpp"
#include "gui/client/playback_feed.hpp"
#include "tests/gui/test_snapshots.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::gui::client {
namespace {

QStringList args(std::initializer_list<const char*> a) {
    QStringList out;
    for (const char* s : a) out << QString::fromLatin1(s);
    return out;
}

TEST(GuiOptions, NothingPlaysTheDefaultScenario) {
    auto o = parse_gui_options({});
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->mode, GuiOptions::Mode::simulate);
    EXPECT_EQ(o->target, "default");
}

TEST(GuiOptions, PrometheusSearchAndTrace) {
    auto fleet = parse_gui_options(args({"--prometheus", "http://prom:9090", "--interval", "2"}));
    ASSERT_TRUE(fleet.ok()) << fleet.error().message;
    EXPECT_EQ(fleet->mode, GuiOptions::Mode::fleet);
    EXPECT_EQ(fleet->target, "http://prom:9090");
    EXPECT_FALSE(parse_gui_options(args({"--prometheus", "prom:9090"})).ok());
    EXPECT_FALSE(parse_gui_options(args({"http://d:9857", "--prometheus", "http://p:9090"})).ok());
    auto o = parse_gui_options(args({"http://d:9857", "--search", "Leaf017", "--trace"}));
    ASSERT_TRUE(o.ok());
    EXPECT_EQ(o->search, "Leaf017");
    EXPECT_TRUE(o->trace);
    EXPECT_EQ(parse_gui_options(args({"http://d:9857"}))->interval_s, 1.0);
}

TEST(GuiOptions, UrlRecordingAndSimulate) {
    auto url = parse_gui_options(args({"http://127.0.0.1:9857", "--interval", "5"}));
    ASSERT_TRUE(url.ok());
    EXPECT_EQ(url->mode, GuiOptions::Mode::daemon);
    EXPECT_EQ(url->interval_s, 5.0);
    auto rec = parse_gui_options(args({"capture.jsonl"}));
    ASSERT_TRUE(rec.ok());
    EXPECT_EQ(rec->mode, GuiOptions::Mode::recording);
    auto sim = parse_gui_options(
        args({"--simulate=mr-xprtrdma-stuck", "--at=30", "--speed", "2", "--screenshot", "out.png",
              "--size", "1600x900", "--clock.start", "2026-12-02T10:00:00Z"}));
    ASSERT_TRUE(sim.ok()) << sim.error().message;
    EXPECT_EQ(sim->target, "mr-xprtrdma-stuck");
    EXPECT_EQ(sim->at_s, 30.0);
    EXPECT_EQ(sim->speed, 2.0);
    EXPECT_EQ(sim->screenshot, "out.png");
    EXPECT_EQ(sim->width, 1600);
    EXPECT_EQ(sim->clock_start, testing::at_seconds(0));
    auto bare = parse_gui_options(args({"--simulate"}));
    EXPECT_EQ(bare->target, "default");
}

TEST(GuiOptions, BadArgumentsSayWhy) {
    EXPECT_EQ(parse_gui_options(args({"--speed"})).error().message, "--speed expects a value");
    EXPECT_EQ(parse_gui_options(args({"--speed", "fast"})).error().message,
              "--speed expects a non-negative number, not 'fast'");
    EXPECT_EQ(parse_gui_options(args({"--bogus"})).error().message,
              "unknown option --bogus (see --help)");
    EXPECT_EQ(parse_gui_options(args({"a.json", "b.json"})).error().message,
              "give one of URL, RECORDING or --simulate");
    EXPECT_FALSE(parse_gui_options(args({"--size", "10x10"})).ok());
    EXPECT_FALSE(parse_gui_options(args({"--clock.start", "yesterday"})).ok());
}

TEST(GuiOptions, APortWhoseConsumersToStartOn) {
    auto o = parse_gui_options(
        args({"--simulate=ipoib-index-moved-no-restart", "--consumers", "mlx5_0:1"}));
    ASSERT_TRUE(o.ok()) << o.error().message;
    EXPECT_EQ(o->consumers_of, (PortRef{"mlx5_0", 1}));
    auto bad = parse_gui_options(args({"--consumers", "mlx5_0"}));
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message.rfind("--consumers: ", 0), 0u) << bad.error().message;
}

TEST(GuiOptions, AnIntentForASimulationAndAPartitionToStartOn) {
    auto o = parse_gui_options(
        args({"--simulate", "--partitions.conf", "site.conf", "--partition", "0x8011"}));
    ASSERT_TRUE(o.ok()) << o.error().message;
    EXPECT_EQ(o->source_options.at("partitions.conf"), "site.conf");
    EXPECT_EQ(o->partition, 0x0011) << "the partition, whichever member's key names it";
    EXPECT_EQ(parse_gui_options(args({"--partition=17"}))->partition, 0x0011);
    EXPECT_EQ(parse_gui_options(args({"--partition", "0xzz"})).error().message,
              "--partition: not a P_Key: '0xzz'");
    // A daemon judges against its own file; a recording holds the intent it was made with.
    EXPECT_EQ(parse_gui_options(args({"http://d:9857", "--partitions.conf", "site.conf"}))
                  .error()
                  .message,
              "--partitions.conf goes with --simulate only");
    EXPECT_FALSE(parse_gui_options(args({"capture.jsonl", "--partitions.conf=site.conf"})).ok());
    // The partitions source's options, as it declares them, with their older spellings.
    auto guid = parse_gui_options(args(
        {"--simulate", "--partitions.conf", "site.conf", "--partitions.sm-port-guid", "0x12"}));
    ASSERT_TRUE(guid.ok()) << guid.error().message;
    EXPECT_EQ(guid->source_options.at("partitions.sm_port_guid"), "0x12");
    EXPECT_EQ(
        parse_gui_options(args({"--simulate", "--partitions.sm_port_guid=0"})).error().message,
        "partitions source: partitions.sm_port_guid must be a GUID other than 0, not '0'");
    EXPECT_EQ(parse_gui_options(args({"--simulate", "--partitions.conf="})).error().message,
              "partitions source: partitions.conf must be a path, not ''");
    for (const auto& spec : gui_source_options()) {
        EXPECT_TRUE(gui_usage().contains(QString::fromStdString("--" + std::string(spec.key))))
            << spec.key << " is in --help";
    }

    GuiOptions missing;
    missing.source_options["partitions.conf"] = "/nonexistent/partitions.conf";
    auto feed = make_feed(missing);
    ASSERT_FALSE(feed.ok());
    EXPECT_EQ(feed.error().message.rfind("cannot read /nonexistent/partitions.conf", 0), 0u)
        << feed.error().message;
    GuiOptions judged;
    judged.source_options["partitions.conf"] =
        ::rdmadiag::test::fixtures_dir() + "/partitions/sim-default.conf";
    auto played = make_feed(judged);
    ASSERT_TRUE(played.ok()) << played.error().message;
    EXPECT_TRUE((*played)->description().contains(QStringLiteral("sim-default.conf")));
    delete *played;
}

TEST(GuiOptions, FeedsForEachMode) {
    GuiOptions o;
    o.target = "mr-xprtrdma-stuck";
    auto sim = make_feed(o);
    ASSERT_TRUE(sim.ok());
    EXPECT_NE(qobject_cast<PlaybackFeed*>(*sim), nullptr);
    delete *sim;

    o.mode = GuiOptions::Mode::daemon;
    o.target = "http://127.0.0.1:1";
    auto api = make_feed(o);
    ASSERT_TRUE(api.ok());
    EXPECT_NE(qobject_cast<ApiFeed*>(*api), nullptr);
    delete *api;

    o.mode = GuiOptions::Mode::recording;
    o.target = testing::api_fixture_path("default-70s.json");
    auto rec = make_feed(o);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    delete *rec;

    o.target = "/nonexistent/recording.jsonl";
    auto missing = make_feed(o);
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(
        missing.error().message.rfind("cannot open recording /nonexistent/recording.jsonl", 0), 0u);

    o.mode = GuiOptions::Mode::simulate;
    o.target = "no-such-scenario";
    EXPECT_FALSE(make_feed(o).ok());
}

}  // namespace
}  // namespace rdmadiag::gui::client
