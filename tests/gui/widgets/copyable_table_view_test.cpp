#include "gui/widgets/copyable_table_view.hpp"

#include <gtest/gtest.h>

#include <QApplication>
#include <QClipboard>
#include <QStandardItemModel>
#include <QTest>

namespace rdmadiag::gui::widgets {
namespace {

TEST(CopyableTableView, CtrlCCopiesSelectedRowsAsTabSeparatedTextWithHeader) {
    QStandardItemModel model(3, 2);
    model.setHorizontalHeaderLabels({QStringLiteral("Rule"), QStringLiteral("Last\nchange")});
    for (int r = 0; r < 3; ++r) {
        model.setItem(r, 0, new QStandardItem(QStringLiteral("rule%1").arg(r)));
        model.setItem(r, 1, new QStandardItem(QStringLiteral("a\tb%1").arg(r)));
    }
    CopyableTableView view;
    view.setModel(&model);
    view.show();
    view.selectRow(0);
    view.selectionModel()->select(model.index(2, 0),
                                  QItemSelectionModel::Select | QItemSelectionModel::Rows);
    EXPECT_EQ(view.selection_text(),
              QStringLiteral("Rule\tLast change\nrule0\ta b0\nrule2\ta b2\n"));
    QApplication::clipboard()->clear();
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
    EXPECT_EQ(QApplication::clipboard()->text(), view.selection_text());
}

TEST(CopyableTableView, NothingSelectedCopiesNothing) {
    QStandardItemModel model(0, 1);
    CopyableTableView view;
    view.setModel(&model);
    EXPECT_TRUE(view.selection_text().isEmpty());
}

}  // namespace
}  // namespace rdmadiag::gui::widgets
