#include "gui/models/mr_filter_proxy.hpp"

#include "gui/models/mr_table_model.hpp"

namespace rdmadiag::gui::models {

MrFilterProxy::MrFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(MrTableModel::SortRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void MrFilterProxy::set_state_filter(const QString& state) {
    if (state == state_) return;
    state_ = state;
    invalidateFilter();
}

bool MrFilterProxy::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    if (!state_.isEmpty()) {
        const QModelIndex idx = sourceModel()->index(source_row, 0, source_parent);
        const QString state = idx.data(MrTableModel::StateRole).toString();
        if (state_ == QLatin1String(kFlagged)) {
            if (!idx.data(MrTableModel::NeedsDeregRole).toBool() &&
                state != QLatin1String("unknown")) {
                return false;
            }
        } else if (state != state_) {
            return false;
        }
    }
    return QSortFilterProxyModel::filterAcceptsRow(source_row, source_parent);
}

}  // namespace rdmadiag::gui::models
