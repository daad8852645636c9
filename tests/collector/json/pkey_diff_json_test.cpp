#include "collector/json/pkey_diff_json.hpp"

#include <gtest/gtest.h>

#include "collector/json/pkey_state_json.hpp"

namespace rdmadiag::codec {
namespace {

TEST(PKeyDiffJson, PortStateWithJudgementAndLastDiffRoundTrips) {
    PortPKeyState s;
    PKeyViewState cache;
    cache.view = PKeyView::cache;
    cache.table.keys = {0xffff, 0x8001};
    cache.generation = 2;
    cache.loaded_generation = 5;
    s.views.push_back(cache);
    s.cache = CacheJudgement::stale;
    s.cache_note = "differs";
    s.stale_since = TimePoint{std::chrono::seconds(10)};
    PKeyDiff d;
    d.port = PortRef{"mlx5_0", 1};
    d.old_generation = 4;
    d.new_generation = 5;
    d.time = TimePoint{std::chrono::seconds(10)};
    d.changes = {{PKeyChangeKind::moved, 3, 1, 0x8001, 0x8001},
                 {PKeyChangeKind::removed, 4, std::nullopt, 0x8002, 0}};
    s.last_diff = d;
    const Json j = s;
    EXPECT_EQ(j["cache"], "stale");
    EXPECT_EQ(j["last_diff"]["changes"][0]["kind"], "moved");
    EXPECT_EQ(j["last_diff"]["changes"][0]["old_index"], 1);
    EXPECT_EQ(j["views"][0]["loaded_generation"], 5);
    EXPECT_EQ(j.get<PortPKeyState>(), s);
}

TEST(PKeyDiffJson, UnknownChangeKindIsRejected) {
    const auto j =
        Json::parse(R"({"kind":"teleported","index":1,"old_key":"0x0000","new_key":"0x8001"})");
    EXPECT_THROW(j.get<PKeyEntryChange>(), std::exception);
}

TEST(PKeyDiffJson, AnIndexBeyondItsWidthIsRejectedNamingTheField) {
    const auto j =
        Json::parse(R"({"kind":"added","index":65536,"old_key":"0x0000","new_key":"0x8001"})");
    try {
        (void)j.get<PKeyEntryChange>();
        FAIL() << "index 65536 was accepted";
    } catch (const std::exception& e) {
        EXPECT_EQ(std::string(e.what()),
                  "field 'index': expected an integer from 0 to 65535, got 65536");
    }
}

}  // namespace
}  // namespace rdmadiag::codec
