// The Partitions tab's models: the partition list (rows, counts, what is highlighted and why),
// one partition's member ports (differences first, highlighted by kind, the compared cells
// marked), the P_Key filter, and how DashboardModels feeds them from a playback's engine model
// and from a daemon's answers.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>

#include "gui/models/dashboard_models.hpp"
#include "gui/models/display_text.hpp"
#include "gui/models/partition_filter_proxy.hpp"
#include "gui/models/partition_list_model.hpp"
#include "gui/models/partition_member_model.hpp"
#include "tests/gui/partition_fixture.hpp"

namespace rdmadiag::gui::models {
namespace {

constexpr auto kIntent = static_cast<size_t>(MemberView::intent);
constexpr auto kSm = static_cast<size_t>(MemberView::sm);
constexpr auto kSma = static_cast<size_t>(MemberView::sma);
constexpr auto kDevice = static_cast<size_t>(MemberView::device);

PartitionRow partition(uint16_t pkey, std::string name, bool intended, MemberCounts intent,
                       MemberCounts held, std::optional<uint32_t> differences) {
    PartitionRow r;
    r.pkey = pkey;
    r.name = std::move(name);
    r.intended = intended;
    r.counts[kIntent] = intent;
    r.counts[kSm] = held;
    r.counts[kSma] = held;
    r.counts[kDevice] = held;
    r.counts[static_cast<size_t>(MemberView::cache)] = held;
    r.differences = differences;
    return r;
}

// Storage as the file wants it; 0x0011 held limited where the file says full by one port, and
// 0x0042 held by a port the file does not give it.
PartitionListing listing() {
    PartitionListing l;
    l.intent = true;
    l.intent_file = PartitionIntentInfo{};
    l.intent_file->path = "/etc/opensm/partitions.conf";
    l.partitions = {partition(0x0001, "Storage", true, {0, 2, 0}, {0, 2, 0}, 0),
                    partition(0x0011, "Compute", true, {0, 3, 0}, {1, 2, 0}, 1),
                    partition(0x0042, "", false, {}, {0, 1, 0}, 1),
                    partition(0x7fff, "Default", true, {0, 3, 0}, {0, 3, 0}, 0)};
    return l;
}

PartitionMemberRow member(const char* device, MemberDifference d, uint8_t intent, uint8_t held) {
    PartitionMemberRow m;
    m.port = PortRef{device, 1};
    m.node = std::string(device) + " HCA-1";
    m.guid = 0x0002c90300001234u;
    m.holds[kIntent] = intent;
    m.holds[kSma] = held;
    m.holds[kDevice] = held;
    m.held_view = MemberView::sma;
    m.difference = d;
    return m;
}

// 0x0011's members in the engine's port order: the one that differs is not first.
std::vector<PartitionMemberRow> compute_members() {
    return {member("node01", MemberDifference::none, kHoldsFull, kHoldsFull),
            member("node02", MemberDifference::mismatch, kHoldsFull, kHoldsLimited),
            member("node03", MemberDifference::none, kHoldsFull, kHoldsFull)};
}

Finding partition_finding(const char* rule, uint16_t pkey, Severity severity) {
    Finding f;
    f.rule = rule;
    f.severity = severity;
    f.subject.pkey = pkey;
    f.since = testing::at_seconds(30);
    f.evidence = "evidence";
    return f;
}

QVariant at(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole) {
    return m.index(row, column).data(role);
}

TEST(PartitionListModel, RowsCountsAndWhatIsHighlighted) {
    PartitionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_listing(listing());
    ASSERT_EQ(model.rowCount(), 4);
    using M = PartitionListModel;
    EXPECT_EQ(at(model, 0, M::PKeyColumn).toString(), QStringLiteral("0x0001"));
    EXPECT_EQ(at(model, 0, M::NameColumn).toString(), QStringLiteral("Storage"));
    EXPECT_EQ(at(model, 1, M::IntentColumn).toString(), QStringLiteral("3/0"));
    EXPECT_EQ(at(model, 1, M::SmaColumn).toString(), QStringLiteral("2/1"));
    EXPECT_EQ(at(model, 1, M::CacheColumn).toString(), QStringLiteral("2/1"));
    EXPECT_EQ(at(model, 2, M::IntentColumn).toString(), QStringLiteral("-"));
    EXPECT_EQ(at(model, 2, M::NameColumn).toString(), QStringLiteral("-"));
    EXPECT_EQ(at(model, 1, M::DiffersColumn).toString(), QStringLiteral("1"));
    EXPECT_EQ(at(model, 1, M::PKeyColumn, M::PKeyRole).toInt(), 0x0011);

    // A partition as the file says: nothing tinted.
    for (int c = 0; c < M::ColumnCount; ++c) {
        EXPECT_FALSE(at(model, 0, c, Qt::BackgroundRole).isValid()) << "column " << c;
    }
    EXPECT_EQ(at(model, 0, M::DiffersColumn, M::DifferencesRole).toInt(), 0);
    // One that differs: its row tinted, each view that is not the intent's marked.
    EXPECT_EQ(at(model, 1, M::DiffersColumn, M::DifferencesRole).toInt(), 1);
    EXPECT_TRUE(at(model, 1, M::NameColumn, Qt::BackgroundRole).isValid());
    EXPECT_TRUE(at(model, 1, M::SmaColumn, M::DiffersFromIntentRole).toBool());
    EXPECT_FALSE(at(model, 1, M::IntentColumn, M::DiffersFromIntentRole).toBool());
    EXPECT_TRUE(at(model, 1, M::CacheColumn, M::DiffersFromIntentRole).toBool());
    EXPECT_NE(at(model, 1, M::SmaColumn, Qt::BackgroundRole),
              at(model, 1, M::NameColumn, Qt::BackgroundRole));
    // Not in the file: greyed name, and judged.
    EXPECT_TRUE(at(model, 2, M::NameColumn, Qt::ForegroundRole).isValid());
    EXPECT_TRUE(at(model, 2, M::PKeyColumn, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("not in partitions.conf")));

    // Without an intent nothing is judged.
    PartitionListing views_only;
    views_only.partitions = {partition(0x0011, "", false, {}, {1, 2, 0}, std::nullopt)};
    model.set_listing(views_only);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(at(model, 0, M::DiffersColumn).toString(), QStringLiteral("-"));
    EXPECT_EQ(at(model, 0, M::DiffersColumn, M::DifferencesRole).toInt(), -1);
    EXPECT_FALSE(at(model, 0, M::SmaColumn, M::DiffersFromIntentRole).toBool());
    EXPECT_FALSE(at(model, 0, M::SmaColumn, Qt::BackgroundRole).isValid());
}

TEST(PartitionListModel, TheSamePartitionsUpdateInPlaceAndCountTheirFindings) {
    PartitionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_listing(listing());
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    model.set_listing(listing());
    EXPECT_EQ(changes.count() + resets.count(), 0) << "the same answer repaints nothing";
    PartitionListing next = listing();
    next.partitions[1].differences = 0;
    model.set_listing(next);
    EXPECT_EQ(resets.count(), 0) << "the same P_Keys: a selection survives";
    EXPECT_GE(changes.count(), 1);
    EXPECT_EQ(at(model, 1, PartitionListModel::DiffersColumn).toString(), QStringLiteral("0"));

    model.set_findings({partition_finding("partition.member_missing", 0x0011, Severity::warning),
                        partition_finding("partition.enforcement_off", 0x8011, Severity::critical),
                        partition_finding("partition.unexpected_member", 0x0042, Severity::info)});
    EXPECT_EQ(at(model, 1, PartitionListModel::FindingsColumn).toString(), QStringLiteral("2"));
    EXPECT_EQ(at(model, 1, 0, PartitionListModel::FindingsRole).toInt(), 2);
    EXPECT_EQ(at(model, 1, PartitionListModel::FindingsColumn, Qt::BackgroundRole),
              QVariant(severity_background(Severity::critical)));
    EXPECT_EQ(at(model, 2, PartitionListModel::FindingsColumn).toString(), QStringLiteral("1"));
    EXPECT_EQ(at(model, 0, PartitionListModel::FindingsColumn).toString(), QString());

    next.partitions.pop_back();
    model.set_listing(next);
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.row_of(0x7fff), -1);
}

TEST(PartitionMemberModel, DifferencesFirstHighlightedByKindWithTheComparedCellsMarked) {
    PartitionMemberModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_members(0x0011, compute_members());
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.differing(), 1);
    using M = PartitionMemberModel;
    EXPECT_EQ(at(model, 0, M::PortColumn).toString(), QStringLiteral("node02 HCA-1:1"));
    EXPECT_EQ(at(model, 0, M::PortColumn, Qt::ToolTipRole).toString(), QStringLiteral("node02:1"));
    EXPECT_EQ(at(model, 1, M::PortColumn).toString(), QStringLiteral("node01 HCA-1:1"));
    EXPECT_EQ(at(model, 2, M::PortColumn).toString(), QStringLiteral("node03 HCA-1:1"));
    EXPECT_EQ(at(model, 0, M::IntentColumn).toString(), QStringLiteral("full"));
    EXPECT_EQ(at(model, 0, M::SmaColumn).toString(), QStringLiteral("limited"));
    EXPECT_EQ(at(model, 0, M::SmColumn).toString(), QStringLiteral("-"));
    EXPECT_EQ(at(model, 0, M::DifferenceColumn).toString(), QStringLiteral("mismatch"));
    EXPECT_EQ(at(model, 0, M::GuidColumn).toString(), QStringLiteral("0x0002c90300001234"));
    EXPECT_EQ(at(model, 0, M::GuidColumn, M::DeviceRole).toString(), QStringLiteral("node02"));
    EXPECT_EQ(at(model, 0, M::GuidColumn, M::PortNumberRole).toInt(), 1);

    // The differing row: tinted; the intent's cell and the held view's are the ones compared.
    EXPECT_EQ(at(model, 0, M::PortColumn, M::DifferenceRole).toString(),
              QStringLiteral("mismatch"));
    EXPECT_EQ(at(model, 0, M::PortColumn, Qt::BackgroundRole),
              QVariant(difference_background(MemberDifference::mismatch)));
    for (int c = M::IntentColumn; c <= M::CacheColumn; ++c) {
        const bool compared = c == M::IntentColumn || c == M::SmaColumn;
        EXPECT_EQ(at(model, 0, c, M::ComparedRole).toBool(), compared) << "column " << c;
        EXPECT_EQ(at(model, 0, c, Qt::BackgroundRole),
                  QVariant(compared ? difference_cell(MemberDifference::mismatch)
                                    : difference_background(MemberDifference::mismatch)))
            << "column " << c;
        EXPECT_EQ(at(model, 0, c, Qt::FontRole).isValid(), compared) << "column " << c;
    }
    // The others: nothing.
    EXPECT_EQ(at(model, 1, M::PortColumn, M::DifferenceRole).toString(), QStringLiteral("none"));
    EXPECT_FALSE(at(model, 1, M::IntentColumn, M::ComparedRole).toBool());
    EXPECT_FALSE(at(model, 1, M::SmaColumn, Qt::BackgroundRole).isValid());
    EXPECT_EQ(at(model, 1, M::DifferenceColumn).toString(), QString());

    // Each kind has its own colour.
    EXPECT_NE(difference_background(MemberDifference::missing),
              difference_background(MemberDifference::unexpected));
    EXPECT_NE(difference_background(MemberDifference::missing),
              difference_background(MemberDifference::mismatch));
    EXPECT_FALSE(difference_background(MemberDifference::none).isValid());
}

TEST(PartitionMemberModel, TheSamePortsUpdateInPlaceAnotherPartitionResets) {
    PartitionMemberModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.set_members(0x0011, compute_members());
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    model.set_members(0x0011, compute_members());
    EXPECT_EQ(changes.count(), 0) << "nothing changed, nothing is repainted";
    // node02 loses the key: still the one that differs, still first.
    auto next = compute_members();
    next[1].holds[kSma] = 0;
    next[1].holds[kDevice] = 0;
    next[1].difference = MemberDifference::missing;
    model.set_members(0x0011, next);
    EXPECT_EQ(resets.count(), 0);
    EXPECT_EQ(changes.count(), 1);
    EXPECT_EQ(at(model, 0, PartitionMemberModel::PortColumn).toString(),
              QStringLiteral("node02 HCA-1:1"));
    EXPECT_EQ(at(model, 0, PartitionMemberModel::DifferenceColumn).toString(),
              QStringLiteral("missing"));
    // node02 fixed and node03 wrong: the rows move, so the model is reset.
    next = compute_members();
    next[1].holds[kSma] = kHoldsFull;
    next[1].difference = MemberDifference::none;
    next[2].holds[kSma] = kHoldsLimited;
    next[2].difference = MemberDifference::mismatch;
    model.set_members(0x0011, next);
    EXPECT_EQ(resets.count(), 1);
    EXPECT_EQ(at(model, 0, PartitionMemberModel::PortColumn).toString(),
              QStringLiteral("node03 HCA-1:1"));
    model.set_members(0x0001, {member("node09", MemberDifference::none, 0, kHoldsFull)});
    EXPECT_EQ(resets.count(), 2);
    EXPECT_EQ(model.pkey(), 0x0001);
    EXPECT_EQ(model.rowCount(), 1);
}

TEST(PartitionFilterProxy, AnyWayAPKeyIsWrittenFindsItsPartitionOnly) {
    PartitionListModel model;
    model.set_listing(listing());
    PartitionFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    auto shown = [&](const char* query) {
        proxy.set_query(QString::fromLatin1(query));
        QStringList keys;
        for (int r = 0; r < proxy.rowCount(); ++r) keys << proxy.index(r, 0).data().toString();
        return keys.join(QLatin1Char(' '));
    };
    EXPECT_EQ(shown(""), QStringLiteral("0x0001 0x0011 0x0042 0x7fff"));
    for (const char* q : {"0x8011", "0x0011", "8011", "0011", "17", " 0x8011 "}) {
        EXPECT_EQ(shown(q), QStringLiteral("0x0011")) << q;
    }
    EXPECT_EQ(shown("0xffff"), QStringLiteral("0x7fff"));
    EXPECT_EQ(shown("stor"), QStringLiteral("0x0001"));
    EXPECT_EQ(shown("Default"), QStringLiteral("0x7fff"));
    EXPECT_EQ(shown("0x9999"), QString());
    // No P_Key: looked for in the keys, the full member's included.
    EXPECT_EQ(shown("x80"), QStringLiteral("0x0001 0x0011 0x0042"));
}

TEST(DashboardPartitions, ADaemonsAnswersFillTheListThenTheChosenMembers) {
    DashboardModels m;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    for (QAbstractItemModel* model : std::initializer_list<QAbstractItemModel*>{
             &m.partitions, &m.partition_members, &m.partition_findings}) {
        testers.push_back(std::make_unique<QAbstractItemModelTester>(
            model, QAbstractItemModelTester::FailureReportingMode::Fatal));
    }
    Snapshot s = testing::trouble_snapshot();
    s.findings.push_back(
        partition_finding("partition.membership_mismatch", 0x0011, Severity::warning));
    s.findings.push_back(
        partition_finding("partition.unexpected_member", 0x0042, Severity::warning));
    m.apply(std::make_shared<const Snapshot>(s));
    EXPECT_FALSE(m.partitions_info().have);
    EXPECT_FALSE(m.current_partition().has_value());

    m.set_partitions(listing());
    EXPECT_TRUE(m.partitions_info().have);
    EXPECT_TRUE(m.partitions_info().intent);
    EXPECT_EQ(m.partitions.rowCount(), 4);
    // The first that differs is chosen; its members are read by the feed.
    EXPECT_EQ(m.current_partition(), 0x0011);
    EXPECT_EQ(m.partition_members.rowCount(), 0);
    ASSERT_EQ(m.partition_findings.rowCount(), 1);
    EXPECT_EQ(m.partition_findings.finding_at(0)->rule, "partition.membership_mismatch");

    PartitionListing members;
    members.intent = true;
    members.members_of = 0x0042;  // an answer for another choice: dropped
    members.partitions = {listing().partitions[2]};
    members.members = {member("node05", MemberDifference::unexpected, 0, kHoldsFull)};
    m.set_partitions(members);
    EXPECT_EQ(m.partition_members.rowCount(), 0);
    members.members_of = 0x0011;
    members.partitions = {listing().partitions[1]};
    members.partitions[0].differences = 1;
    members.members = compute_members();
    m.set_partitions(members);
    EXPECT_EQ(m.partition_members.pkey(), 0x0011);
    EXPECT_EQ(m.partition_members.rowCount(), 3);

    m.select_partition(0x8042);  // as a full member's key: the partition 0x0042
    EXPECT_EQ(m.current_partition(), 0x0042);
    EXPECT_EQ(m.partition_members.rowCount(), 0) << "until the feed reads them";
    ASSERT_EQ(m.partition_findings.rowCount(), 1);
    EXPECT_EQ(m.partition_findings.finding_at(0)->rule, "partition.unexpected_member");

    // The chosen partition is gone from the next list: another is chosen.
    PartitionListing without = listing();
    without.partitions.erase(without.partitions.begin() + 2);
    m.set_partitions(without);
    EXPECT_EQ(m.current_partition(), 0x0011);
    m.set_partitions_problem(QStringLiteral("the daemon answered HTTP 503"));
    EXPECT_EQ(m.partitions_info().problem, QStringLiteral("the daemon answered HTTP 503"));
    EXPECT_EQ(m.partitions.rowCount(), 3) << "what was shown stays";
    m.set_partitions(without);
    EXPECT_TRUE(m.partitions_info().problem.isEmpty());
}

TEST(DashboardPartitions, APlaybacksEngineModelFillsEverything) {
    const SnapshotPtr snap = testing::judged_partitions_snapshot();
    ASSERT_TRUE(snap);
    DashboardModels m;
    m.apply(snap);
    const PartitionListing all = listing_of(*snap->partitions);
    ASSERT_EQ(m.partitions.rowCount(), static_cast<int>(all.partitions.size()));
    ASSERT_TRUE(m.current_partition().has_value());
    // The first partition with differences: 0x0002, which the file does not define.
    EXPECT_EQ(m.current_partition(), 0x0002);
    EXPECT_EQ(m.partition_members.rowCount(), 2);
    EXPECT_EQ(m.partition_members.index(0, 0).data(PartitionMemberModel::DifferenceRole).toString(),
              QStringLiteral("unexpected"));
    m.select_partition(0x0003);
    ASSERT_EQ(m.partition_members.rowCount(), 2) << "read from the engine's model at once";
    EXPECT_EQ(m.partition_members.index(0, 0).data(PartitionMemberModel::DifferenceRole).toString(),
              QStringLiteral("mismatch"));
    EXPECT_EQ(m.partition_members.index(1, 0).data(PartitionMemberModel::DifferenceRole).toString(),
              QStringLiteral("missing"));
    QStringList rules;
    for (const auto& f : m.partition_findings.findings()) rules << QString::fromStdString(f.rule);
    rules.sort();
    EXPECT_EQ(rules, (QStringList{QStringLiteral("partition.member_missing"),
                                  QStringLiteral("partition.membership_mismatch")}));
    ASSERT_TRUE(m.partitions_info().intent_file.has_value());
    EXPECT_EQ(m.partitions_info().intent_file->path, testing::sim_default_intent());

    // The next snapshot shares the model: nothing is rebuilt.
    QSignalSpy changes(&m.partition_members, &QAbstractItemModel::dataChanged);
    QSignalSpy resets(&m.partition_members, &QAbstractItemModel::modelReset);
    auto next = std::make_shared<Snapshot>(*snap);
    next->sequence += 1;
    m.apply(next);
    EXPECT_EQ(changes.count() + resets.count(), 0);
}

}  // namespace
}  // namespace rdmadiag::gui::models
