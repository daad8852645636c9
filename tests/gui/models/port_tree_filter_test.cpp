#include "gui/models/port_tree_filter.hpp"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>

#include "gui/models/port_tree_model.hpp"
#include "tests/gui/fat_tree_snapshot.hpp"

namespace rdmadiag::gui::models {
namespace {

// Every node row the filter shows, by name.
QStringList shown_nodes(const PortTreeFilter& f) {
    QStringList out;
    for (int g = 0; g < f.rowCount(); ++g) {
        const QModelIndex group = f.index(g, 0);
        for (int n = 0; n < f.rowCount(group); ++n) out << f.index(n, 0, group).data().toString();
    }
    return out;
}

class PortTreeFilterTest : public ::testing::Test {
protected:
    void SetUp() override {
        tree.set_snapshot(testing::fat_tree_snapshot({4, 2, 3, 2}));
        filter.setSourceModel(&tree);
    }
    PortTreeModel tree;
    PortTreeFilter filter;
    QAbstractItemModelTester tester{&filter, QAbstractItemModelTester::FailureReportingMode::Fatal};
};

TEST_F(PortTreeFilterTest, EmptyQueryShowsEverything) {
    EXPECT_EQ(shown_nodes(filter).size(), 18);
}

TEST_F(PortTreeFilterTest, MatchesNameCaseInsensitivelyWithAllPortsOfTheNode) {
    filter.set_query(QStringLiteral("spine02"));
    ASSERT_EQ(shown_nodes(filter), QStringList{QStringLiteral("Spine02")});
    const QModelIndex spine = filter.index(0, 0, filter.index(0, 0));
    EXPECT_EQ(filter.rowCount(spine), 4);  // every port of a matching node
    filter.set_query(QStringLiteral("node001"));
    EXPECT_EQ(shown_nodes(filter).size(), 3);  // node0010, node0011, node0012
}

TEST_F(PortTreeFilterTest, MatchesGuidAndLid) {
    filter.set_query(QStringLiteral("0c42a10300000007"));
    EXPECT_EQ(shown_nodes(filter), QStringList{QStringLiteral("node0007 HCA-1")});
    // Switch LIDs are 1..6; HCA ports count on from 7, two per host: LID 20 is node0007 port 2.
    filter.set_query(QStringLiteral("20"));
    ASSERT_EQ(shown_nodes(filter), QStringList{QStringLiteral("node0007 HCA-1")});
    const QModelIndex node = filter.index(0, 0, filter.index(0, 0));
    ASSERT_EQ(filter.rowCount(node), 1);
    EXPECT_EQ(filter.index(0, 0, node).data().toString(), QStringLiteral("port 2"));
    filter.set_query(QStringLiteral("0x2"));  // LID 2 in hex: Leaf002 (every port carries it)
    EXPECT_EQ(shown_nodes(filter), QStringList{QStringLiteral("Leaf002")});
    filter.set_query(QStringLiteral("no such node"));
    EXPECT_EQ(filter.rowCount(), 0);
}

}  // namespace
}  // namespace rdmadiag::gui::models
