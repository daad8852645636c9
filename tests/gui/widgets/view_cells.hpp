#pragma once
// Reading a table view the way a user sees it, for the widget tests: one cell's text, and the
// first row whose cell in a column reads a given text.

#include <QAbstractItemView>
#include <QString>

namespace rdmadiag::gui::widgets::view_cells {

inline QString cell(QAbstractItemView* view, int row, int column, int role = Qt::DisplayRole) {
    return view->model()->index(row, column).data(role).toString();
}

// -1 when no row reads `text` there.
inline int row_of(QAbstractItemView* view, int column, const QString& text) {
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        if (cell(view, r, column) == text) return r;
    }
    return -1;
}

}  // namespace rdmadiag::gui::widgets::view_cells
