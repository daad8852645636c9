#include "gui/widgets/copyable_table_view.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <map>
#include <set>

namespace rdmadiag::gui::widgets {

CopyableTableView::CopyableTableView(QWidget* parent) : QTableView(parent) {
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setSortingEnabled(true);
    setAlternatingRowColors(false);
    setWordWrap(false);
    setTabKeyNavigation(false);  // Tab moves between panels; arrows move between cells
    verticalHeader()->setVisible(false);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->setHighlightSections(false);
    auto* copy = new QAction(tr("Copy"), this);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &CopyableTableView::copy_selection);
    addAction(copy);
    setContextMenuPolicy(Qt::ActionsContextMenu);
}

QString CopyableTableView::selection_text() const {
    if (!model() || !selectionModel()) return {};
    std::set<int> rows;
    for (const QModelIndex& i : selectionModel()->selectedIndexes()) rows.insert(i.row());
    if (rows.empty() && currentIndex().isValid()) rows.insert(currentIndex().row());
    if (rows.empty()) return {};
    QStringList lines;
    QStringList header;
    std::vector<int> columns;
    for (int visual = 0; visual < horizontalHeader()->count(); ++visual) {
        const int c = horizontalHeader()->logicalIndex(visual);
        if (isColumnHidden(c)) continue;
        columns.push_back(c);
        header << model()
                      ->headerData(c, Qt::Horizontal)
                      .toString()
                      .replace(QLatin1Char('\n'), QLatin1Char(' '));
    }
    lines << header.join(QLatin1Char('\t'));
    for (int r : rows) {
        QStringList cells;
        for (int c : columns) {
            cells << model()->index(r, c).data().toString().replace(QLatin1Char('\t'),
                                                                    QLatin1Char(' '));
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void CopyableTableView::copy_selection() const {
    const QString text = selection_text();
    if (!text.isEmpty()) QApplication::clipboard()->setText(text);
}

void CopyableTableView::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        copy_selection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

}  // namespace rdmadiag::gui::widgets
