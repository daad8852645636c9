// The change feed and the paged, searchable views a client of a large fabric uses.
#include <gtest/gtest.h>

#include "collector/json/checked_json.hpp"
#include "exporters/api/api_router.hpp"
#include "tests/exporters/sample_snapshot.hpp"

namespace rdmadiag::api {
namespace {

using json = codec::Json;

// Three nodes a, b, c (copies of the sample's device), a a switch named "Leaf017".
Snapshot fabric(uint64_t sequence) {
    Snapshot s = testing::sample_snapshot();
    s.sequence = sequence;
    DeviceSnapshot base = s.devices[0];
    s.devices.clear();
    for (const char* name : {"a", "b", "c"}) {
        DeviceSnapshot d = base;
        d.info.device = name;
        for (auto& p : d.ports) p.ref.device = name;
        d.revision = sequence;
        s.devices.push_back(d);
    }
    s.devices[0].info.node_type = "switch";
    s.devices[0].info.node_desc = "Leaf017";
    s.devices[2].info.node_desc = "node0421 HCA-1";
    s.devices[2].info.lid = 421;
    s.revisions = SectionRevisions{sequence, sequence, sequence, sequence,
                                   sequence, sequence, sequence, sequence};
    return s;
}

class ChangeFeed : public ::testing::Test {
protected:
    ChangeFeed() { store.publish(std::make_shared<Snapshot>(fabric(17))); }

    HttpResponse get(const std::string& path, const std::string& query) {
        HttpRequest r;
        r.method = "GET";
        r.path = path;
        r.query = query;
        return router.handle(r);
    }
    json get_json(const std::string& path, const std::string& query = "") {
        auto r = get(path, query);
        EXPECT_EQ(r.status, 200) << path << "?" << query << " " << r.body;
        return json::parse(r.body);
    }
    static std::vector<std::string> names(const json& devices) {
        std::vector<std::string> out;
        for (const auto& d : devices) {
            out.push_back(d.contains("info") ? d["info"]["device"].get<std::string>()
                                             : d["device"].get<std::string>());
        }
        return out;
    }

    publish::SnapshotStore store;
    ApiRouter router{store};
};

TEST_F(ChangeFeed, SinceZeroIsTheWholeSnapshotWithoutCounters) {
    auto j = get_json("/api/v1/changes", "since=0");
    EXPECT_TRUE(j["full"].get<bool>());
    EXPECT_EQ(j["sequence"], 17);
    EXPECT_EQ(names(j["devices"]), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(j["device_names"].size(), 3u);
    for (const char* part :
         {"sources", "findings", "finding_history", "events", "errors", "mrs", "pkey_changes"}) {
        EXPECT_TRUE(j.contains(part)) << part;
    }
    for (const auto& p : j["devices"][0]["ports"]) {
        EXPECT_FALSE(p.contains("counters"));
        EXPECT_TRUE(p.contains("pkeys"));
    }
    const auto instance = j["instance"].get<std::string>();
    EXPECT_EQ(instance.size(), 16u);
    EXPECT_EQ(get_json("/api/v1/changes")["instance"], instance) << "one run, one instance";
}

TEST_F(ChangeFeed, OnlyWhatChangedSinceAGivenSnapshot) {
    auto next = fabric(18);
    for (auto& d : next.devices) d.revision = 17;
    next.devices[1].revision = 18;
    next.revisions = SectionRevisions{17, 17, 18, 17, 17, 17, 17, 17};
    store.publish(std::make_shared<Snapshot>(next));
    auto j = get_json("/api/v1/changes", "since=17");
    EXPECT_FALSE(j["full"].get<bool>());
    EXPECT_EQ(j["sequence"], 18);
    EXPECT_EQ(names(j["devices"]), (std::vector<std::string>{"b"}));
    EXPECT_FALSE(j.contains("device_names")) << "the same devices";
    EXPECT_TRUE(j.contains("findings"));
    EXPECT_FALSE(j.contains("sources"));
    EXPECT_FALSE(j.contains("mrs"));
    // Nothing newer than the latest: an empty delta.
    auto none = get_json("/api/v1/changes", "since=18");
    EXPECT_TRUE(none["devices"].empty());
    EXPECT_FALSE(none.contains("findings"));
    // A client that saw a later sequence talked to another run: it gets everything.
    EXPECT_TRUE(get_json("/api/v1/changes", "since=99")["full"].get<bool>());
}

TEST_F(ChangeFeed, ABadSinceIsABadRequest) {
    for (const char* q : {"since=-1", "since=x", "since=", "since=1e3"}) {
        EXPECT_EQ(get("/api/v1/changes", q).status, 400) << q;
    }
}

TEST_F(ChangeFeed, PortsArePagedWithTheirTotal) {
    auto first = get_json("/api/v1/ports", "limit=4");
    EXPECT_EQ(first["ports"].size(), 4u);
    EXPECT_EQ(first["total"], 6);
    EXPECT_EQ(first["next_offset"], 4);
    auto rest = get_json("/api/v1/ports", "limit=4&offset=4");
    EXPECT_EQ(rest["ports"].size(), 2u);
    EXPECT_FALSE(rest.contains("next_offset"));
    EXPECT_EQ(rest["ports"][0]["device"], "c");
    EXPECT_EQ(get_json("/api/v1/counters", "offset=5")["ports"].size(), 1u);
    EXPECT_EQ(get_json("/api/v1/pkeys", "limit=0")["total"], 6);
    EXPECT_EQ(get("/api/v1/ports", "limit=many").status, 400);
}

TEST_F(ChangeFeed, SearchFindsNodesByNameGuidOrLid) {
    auto by_name = get_json("/api/v1/ports", "q=leaf0");
    EXPECT_EQ(by_name["total"], 2) << "both ports of Leaf017, case aside";
    EXPECT_EQ(names(get_json("/api/v1/devices", "q=HCA-1")["devices"]),
              (std::vector<std::string>{"c"}));
    EXPECT_EQ(names(get_json("/api/v1/devices", "q=421")["devices"]),
              (std::vector<std::string>{"c"}));
    EXPECT_EQ(get_json("/api/v1/devices", "q=4210")["total"], 0) << "a LID matches whole";
    EXPECT_EQ(get_json("/api/v1/devices", "q=0x0c42a103")["total"], 3) << "a part of the GUID";
}

TEST_F(ChangeFeed, DevicesListOneLinePerNode) {
    auto j = get_json("/api/v1/devices", "node_type=switch");
    ASSERT_EQ(j["devices"].size(), 1u);
    EXPECT_EQ(j["devices"][0]["device"], "a");
    EXPECT_EQ(j["devices"][0]["node_desc"], "Leaf017");
    EXPECT_EQ(j["devices"][0]["ports"], 2);
    EXPECT_EQ(j["devices"][0]["ports_active"], 1);
    EXPECT_EQ(j["devices"][0]["revision"], 17);
    EXPECT_EQ(get_json("/api/v1/devices", "limit=2")["next_offset"], 2);
}

}  // namespace
}  // namespace rdmadiag::api
