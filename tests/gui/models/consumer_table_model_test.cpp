#include "gui/models/consumer_table_model.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "collector/model/consumer_hits.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::models {
namespace {

const Gid kHeld = *parse_gid("fe80::2:c903:0:1235");
const Gid kGone = *parse_gid("fe80::2:c903:0:9999");

Consumer ipoib(const char* name, std::optional<uint16_t> pkey, const char* parent = "") {
    Consumer c;
    c.kind = ConsumerKind::ipoib;
    c.name = name;
    c.device = "mlx5_0";
    c.port = 1;
    c.pkey = pkey;
    c.qp_type = "UD";
    c.mode = "datagram";
    c.state = "up";
    c.carrier = true;
    c.parent = parent;
    return c;
}

Consumer cm_id(const char* name, const Gid& gid, uint32_t port = 1) {
    Consumer c;
    c.kind = ConsumerKind::cm_id;
    c.name = name;
    c.device = "mlx5_0";
    c.port = port;
    c.owner = ConsumerOwner{4242, "rping"};
    c.gid = gid;
    c.qp_type = "RC";
    c.state = "CONNECT";
    return c;
}

Finding finding(const char* rule, std::optional<uint16_t> index, std::optional<uint16_t> pkey) {
    Finding f;
    f.rule = rule;
    f.subject = FindingSubject{"mlx5_0", 1, index, pkey};
    f.evidence = std::string(rule) + " evidence";
    return f;
}

PortSnapshot port_with_cache(std::vector<Gid> gids) {
    PortSnapshot p;
    p.ref = PortRef{"mlx5_0", 1};
    PortGidState g;
    GidViewState cache;
    cache.view = GidView::cache;
    uint16_t i = 0;
    for (const auto& gid : gids) cache.table.entries.push_back(GidEntry{i++, gid, GidType::ib, {}});
    g.views = {cache};
    p.gids = std::move(g);
    return p;
}

HostConsumers host(std::vector<Consumer> consumers, bool complete = true) {
    ConsumerInventory inv;
    inv.device = "mlx5_0";
    inv.consumers = std::move(consumers);
    inv.complete = complete;
    if (!complete) inv.notes = {"QP dump: permission denied"};
    return HostConsumers{{inv}, {testing::at_seconds(30)}};
}

TEST(ConsumerTableModel, EachRuleMarksTheConsumersItHits) {
    ConsumerTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Consumer child = ipoib("ib0.8002", 0x8002, "ib0");
    child.pkey_index = 7;
    child.index_source = IndexSource::inferred;
    const HostConsumers h =
        host({ipoib("ib0", 0xffff), child, ipoib("ib0.0003", 0x0003, "ib0"),
              cm_id("cm_id 3", kHeld), cm_id("cm_id 4", kGone), cm_id("cm_id 5", kGone, 2)});
    const PortSnapshot port = port_with_cache({kHeld});
    Finding cleared = finding(consumer_rule::pkey_absent, std::nullopt, 0x0003);
    cleared.cleared = testing::at_seconds(50);
    const std::vector<Finding> findings{
        finding(consumer_rule::index_moved, std::nullopt, 0x0002),  // either membership
        finding(consumer_rule::partition_changed, 0, std::nullopt),
        finding(consumer_rule::limited_only, std::nullopt, 0x0003),
        finding(consumer_rule::gid_gone, std::nullopt, std::nullopt), cleared};
    model.set_port(&h, &port, findings);

    ASSERT_EQ(model.rowCount(), 5) << "cm_id 5 is on port 2";
    auto hit = [&](int row) {
        return model.index(row, ConsumerTableModel::HitColumn).data().toString();
    };
    EXPECT_EQ(hit(0), QStringLiteral("consumer.partition_changed")) << "ib0, the parent";
    EXPECT_EQ(hit(1), QStringLiteral("consumer.index_moved"));
    EXPECT_EQ(hit(2), QStringLiteral("consumer.limited_only")) << "the cleared finding is not";
    EXPECT_EQ(hit(3), QString()) << "its GID is still held";
    EXPECT_EQ(hit(4), QStringLiteral("consumer.gid_gone"));
    EXPECT_EQ(model.index(1, ConsumerTableModel::IndexColumn).data().toString(),
              QStringLiteral("7 (inferred)"));
    EXPECT_TRUE(
        model.index(1, 0)
            .data(Qt::ToolTipRole)
            .toString()
            .contains(QStringLiteral("consumer.index_moved: consumer.index_moved evidence")));
    EXPECT_EQ(model.index(4, ConsumerTableModel::OwnerColumn).data().toString(),
              QStringLiteral("rping (pid 4242)"));
    EXPECT_EQ(model.index(0, ConsumerTableModel::OwnerColumn).data().toString(),
              QStringLiteral("kernel"));
    EXPECT_EQ(model.index(0, ConsumerTableModel::StateColumn).data().toString(),
              QStringLiteral("up, carrier on"));
    EXPECT_TRUE(model.index(1, 0).data(ConsumerTableModel::HitRole).toBool());
    EXPECT_TRUE(model.index(1, 0).data(Qt::BackgroundRole).isValid());
    EXPECT_FALSE(model.index(3, 0).data(Qt::BackgroundRole).isValid());
    EXPECT_EQ(model.first_hit_row(), 0);
    EXPECT_EQ(model.summary(), QStringLiteral("Consumers: 3 ipoib, 2 cm_id. 4 hit by a finding."));
}

TEST(ConsumerTableModel, AGidFindingProvesNothingWithoutAWholeCacheView) {
    ConsumerTableModel model;
    const HostConsumers h = host({cm_id("cm_id 4", kGone)});
    PortSnapshot port;  // no GID views at all
    port.ref = PortRef{"mlx5_0", 1};
    model.set_port(&h, &port, {finding(consumer_rule::gid_gone, std::nullopt, std::nullopt)});
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.index(0, ConsumerTableModel::HitColumn).data().toString(), QString());
    EXPECT_FALSE(model.first_hit_row());
}

TEST(ConsumerTableModel, SaysWhyItHasNothingAndWhenTheListingIsIncomplete) {
    ConsumerTableModel model;
    EXPECT_EQ(model.summary(), QStringLiteral("Select a port to see who uses it."));
    const PortSnapshot port = port_with_cache({kHeld});
    model.set_port(nullptr, &port, {});
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_TRUE(model.summary().startsWith(QStringLiteral("No consumer listing for mlx5_0")));

    const HostConsumers cut = host({}, /*complete=*/false);
    model.set_port(&cut, &port, {});
    EXPECT_EQ(model.summary(),
              QStringLiteral("No consumers on this port. The listing is incomplete (QP dump: "
                             "permission denied): what is missing proves nothing."));
}

TEST(ConsumerTableModel, TheSameConsumersKeepTheirRowsAcrossPolls) {
    ConsumerTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const PortSnapshot port = port_with_cache({kHeld});
    const HostConsumers before = host({ipoib("ib0", 0xffff), ipoib("ib0.8002", 0x8002, "ib0")});
    model.set_port(&before, &port, {});
    int resets = 0;
    QObject::connect(&model, &QAbstractItemModel::modelReset, [&] { ++resets; });
    HostConsumers after = before;
    after.devices[0].consumers[1].carrier = false;
    model.set_port(&after, &port, {});
    EXPECT_EQ(resets, 0);
    EXPECT_EQ(model.index(1, ConsumerTableModel::StateColumn).data().toString(),
              QStringLiteral("up, carrier off"));
    after.devices[0].consumers.pop_back();
    model.set_port(&after, &port, {});
    EXPECT_EQ(resets, 1);
    EXPECT_EQ(model.rowCount(), 1);
}

}  // namespace
}  // namespace rdmadiag::gui::models
