#pragma once
// A table model whose rows are replaced by every snapshot. When the new rows are the same
// things as before (same keys, same order) only their data changes, so selections, current
// indexes and scroll positions survive a poll; otherwise the model is reset.

#include <QAbstractTableModel>
#include <algorithm>
#include <vector>

namespace rdmadiag::gui::models {

class KeyedTableModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

protected:
    template <class Row, class KeyFn>
    void replace_rows(std::vector<Row>& rows, std::vector<Row> next, KeyFn key) {
        const bool same_keys =
            rows.size() == next.size() &&
            std::equal(rows.begin(), rows.end(), next.begin(),
                       [&](const Row& a, const Row& b) { return key(a) == key(b); });
        if (!same_keys) {
            beginResetModel();
            rows = std::move(next);
            endResetModel();
            return;
        }
        rows = std::move(next);
        if (!rows.empty() && columnCount() > 0) {
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        }
    }
};

}  // namespace rdmadiag::gui::models
