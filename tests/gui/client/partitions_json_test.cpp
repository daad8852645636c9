// Reading /api/v1/partitions answers: what the daemon writes (collector/json/partitions_json, the
// same codec /api/v1/partitions serves) reads back as the listing the engine's model gives, for
// the list and for one partition's members; what is not such an answer, or is cut short, is an
// error; a member port that cannot be read is left out and counted.
#include "gui/client/partitions_json.hpp"

#include <gtest/gtest.h>

#include "collector/json/partitions_json.hpp"
#include "tests/gui/partition_fixture.hpp"

namespace rdmadiag::gui::client {
namespace {

using json = codec::Json;

// The body /api/v1/partitions answers: the codec's document under the API's header.
json answer(const PartitionModel& model, std::optional<uint16_t> pkey = std::nullopt) {
    json j = codec::partitions_to_json(model, pkey);
    j["version"] = 1;
    j["sequence"] = 77;
    j["time"] = "2026-12-02T10:01:00.000Z";
    return j;
}

TEST(PartitionsJson, TheListReadsBackAsTheEnginesModel) {
    const auto snap = testing::judged_partitions_snapshot();
    ASSERT_TRUE(snap);
    const PartitionModel& model = *snap->partitions;
    auto parsed = parse_partitions_answer(answer(model).dump());
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    const models::PartitionListing want = models::listing_of(model);
    const models::PartitionListing& got = parsed->listing;
    EXPECT_EQ(got.sequence, 77u);
    EXPECT_EQ(got.time, *parse_time("2026-12-02T10:01:00Z"));
    EXPECT_TRUE(got.intent);
    EXPECT_EQ(got.partitions, want.partitions);
    EXPECT_EQ(got.intent_file, want.intent_file);
    EXPECT_EQ(got.unresolved, want.unresolved);
    EXPECT_FALSE(got.members_of.has_value());
    EXPECT_TRUE(got.members.empty());
    EXPECT_EQ(parsed->skipped_members, 0u);

    // What the golden `rdmadiag partitions --simulate --intent` shows for the same intent.
    auto three = std::find_if(got.partitions.begin(), got.partitions.end(),
                              [](const models::PartitionRow& p) { return p.pkey == 0x0003; });
    ASSERT_NE(three, got.partitions.end());
    EXPECT_EQ(three->name, "Three");
    EXPECT_TRUE(three->intended);
    EXPECT_EQ(three->differences, 2u);
    EXPECT_EQ(three->counts[static_cast<size_t>(MemberView::intent)].full, 2u);
    EXPECT_EQ(three->counts[static_cast<size_t>(MemberView::sma)].limited, 1u);
    ASSERT_TRUE(got.intent_file.has_value());
    EXPECT_EQ(got.intent_file->issues.size(), 1u);
    EXPECT_EQ(got.intent_file->issues.front().line, 8u);
    ASSERT_EQ(got.unresolved.size(), 1u);
}

TEST(PartitionsJson, OnePartitionsMembersReadBack) {
    const auto snap = testing::judged_partitions_snapshot();
    ASSERT_TRUE(snap);
    const PartitionModel& model = *snap->partitions;
    // Asked for by its full member's key, answered as its base.
    auto parsed = parse_partitions_answer(answer(model, 0x8003).dump(), 0x8003);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    const auto& got = parsed->listing;
    EXPECT_EQ(got.members_of, 0x0003);
    EXPECT_EQ(got.members, models::listing_of(model, 0x0003).members);
    ASSERT_EQ(got.members.size(), 2u);
    EXPECT_EQ(got.members[0].port, (PortRef{"mlx5_0", 1}));
    EXPECT_EQ(got.members[0].node, "node01 HCA-1");
    EXPECT_EQ(got.members[0].guid, 0x0c42a10300b1c2d0u);
    EXPECT_EQ(got.members[0].difference, MemberDifference::mismatch);
    EXPECT_EQ(got.members[0].held_view, MemberView::sma);
    EXPECT_EQ(got.members[0].in(MemberView::intent), kHoldsFull);
    EXPECT_EQ(got.members[0].in(MemberView::sma), kHoldsLimited);
    EXPECT_EQ(got.members[1].difference, MemberDifference::missing);
    EXPECT_EQ(got.members[1].in(MemberView::sma), 0);
}

TEST(PartitionsJson, RefusesWhatIsNotAPartitionsAnswer) {
    const auto snap = testing::judged_partitions_snapshot();
    ASSERT_TRUE(snap);
    const json good = answer(*snap->partitions);
    EXPECT_FALSE(parse_partitions_answer("<html>not JSON</html>").ok());
    EXPECT_FALSE(parse_partitions_answer("[1, 2]").ok());
    EXPECT_FALSE(parse_partitions_answer("").ok());
    EXPECT_FALSE(parse_partitions_answer(R"({"error":"no such route","status":404})").ok());

    auto broken = [&](auto edit) {
        json j = good;
        edit(j);
        auto r = parse_partitions_answer(j.dump());
        EXPECT_FALSE(r.ok()) << j.dump().substr(0, 200);
        return r.ok() ? std::string() : r.error().message;
    };
    broken([](json& j) { j.erase("intent"); });
    broken([](json& j) { j["partitions"] = "all of them"; });
    broken([](json& j) { j["partitions"][0]["pkey"] = "0xzz"; });
    broken([](json& j) { j["partitions"][0]["pkey"] = 3; });
    broken([](json& j) { j["partitions"][0].erase("members_per_view"); });
    broken([](json& j) { j["partitions"][0]["members_per_view"]["sma"]["full"] = -1; });
    broken([](json& j) { j["partitions"][0]["differences"] = "two"; });
    broken([](json& j) { j["intent_file"]["read"] = "yesterday"; });
    const std::string why =
        broken([](json& j) { j["partitions"][1]["members_per_view"]["sm"]["limited"] = 1.5; });
    EXPECT_NE(why.find("members_per_view"), std::string::npos) << why;

    // A members answer must be about the partition asked for, and carry its members.
    const json one = answer(*snap->partitions, 0x0003);
    EXPECT_FALSE(parse_partitions_answer(one.dump(), 0x0002).ok());
    json no_members = one;
    no_members["partitions"][0].erase("members");
    EXPECT_FALSE(parse_partitions_answer(no_members.dump(), 0x0003).ok());
    EXPECT_FALSE(parse_partitions_answer(good.dump(), 0x0003).ok()) << "the whole list";
}

TEST(PartitionsJson, AnAnswerCutShortIsAnErrorWhereverItIsCut) {
    const auto snap = testing::judged_partitions_snapshot();
    ASSERT_TRUE(snap);
    for (const auto pkey : {std::optional<uint16_t>(), std::optional<uint16_t>(0x0003)}) {
        const std::string text = answer(*snap->partitions, pkey).dump();
        ASSERT_TRUE(parse_partitions_answer(text, pkey).ok());
        for (size_t cut = 0; cut < text.size(); ++cut) {
            EXPECT_FALSE(parse_partitions_answer(std::string_view(text).substr(0, cut), pkey).ok())
                << "cut at " << cut;
        }
    }
}

TEST(PartitionsJson, AMemberThatCannotBeReadIsLeftOutAndCounted) {
    const auto snap = testing::judged_partitions_snapshot();
    ASSERT_TRUE(snap);
    json j = answer(*snap->partitions, 0x0003);
    auto& members = j["partitions"][0]["members"];
    ASSERT_EQ(members.size(), 2u);
    members[0]["port"] = ":";
    members[1]["views"]["someday"] = "full";  // a view of a newer daemon: ignored
    members.push_back(json{{"port", "mlx5_9:1"},
                           {"views", json::object()},
                           {"held_view", "sma"},
                           {"difference", "sideways"}});
    members.push_back(42);
    auto parsed = parse_partitions_answer(j.dump(), 0x0003);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->skipped_members, 3u);
    EXPECT_FALSE(parsed->first_skip_reason.empty());
    ASSERT_EQ(parsed->listing.members.size(), 1u);
    EXPECT_EQ(parsed->listing.members[0].port, (PortRef{"mlx5_1", 1}));
    EXPECT_EQ(parsed->listing.members[0].difference, MemberDifference::missing);
}

}  // namespace
}  // namespace rdmadiag::gui::client
