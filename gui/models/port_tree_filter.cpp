#include "gui/models/port_tree_filter.hpp"

#include "gui/models/port_tree_model.hpp"

namespace rdmadiag::gui::models {

namespace {
constexpr qsizetype kMinKeyQuery = 6;
}  // namespace

PortTreeFilter::PortTreeFilter(QObject* parent) : QSortFilterProxyModel(parent) {
    setRecursiveFilteringEnabled(true);
    setAutoAcceptChildRows(true);
    // The source keeps its own order; sorting 12,000 rows on every change would cost a poll.
    setDynamicSortFilter(false);
}

void PortTreeFilter::set_query(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t == text_) return;
    text_ = t;
    lid_.reset();
    bool ok = false;
    const int n = t.startsWith(QLatin1String("0x")) ? t.mid(2).toInt(&ok, 16) : t.toInt(&ok, 10);
    if (ok && n >= 0) lid_ = n;
    invalidateRowsFilter();
}

bool PortTreeFilter::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    if (text_.isEmpty()) return true;
    const QModelIndex i = sourceModel()->index(source_row, 0, source_parent);
    const int level = i.data(PortTreeModel::LevelRole).toInt();
    if (level == 0) return false;  // a group shows when one of its nodes does
    if (lid_) {
        const QVariant lid = i.data(PortTreeModel::LidRole);
        if (lid.isValid() && lid.toInt() == *lid_) return true;
    }
    if (level == 2) return false;
    if (i.data(PortTreeModel::SearchNameRole).toString().contains(text_)) return true;
    // A few digits are a LID or part of a name; in a GUID they would match half the fabric.
    return text_.size() >= kMinKeyQuery &&
           i.data(PortTreeModel::SearchKeyRole).toString().contains(text_);
}

}  // namespace rdmadiag::gui::models
