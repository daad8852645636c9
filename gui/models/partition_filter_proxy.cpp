#include "gui/models/partition_filter_proxy.hpp"

#include "collector/model/pkey.hpp"
#include "gui/models/display_text.hpp"
#include "gui/models/partition_list_model.hpp"

namespace rdmadiag::gui::models {

PartitionFilterProxy::PartitionFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(PartitionListModel::SortRole);
}

void PartitionFilterProxy::set_query(const QString& text) {
    const QString q = text.trimmed();
    if (q == query_) return;
    query_ = q;
    pkey_.reset();
    if (auto v = parse_pkey(q.toStdString())) pkey_ = pkey_base(*v);
    invalidateFilter();
}

bool PartitionFilterProxy::filterAcceptsRow(int source_row,
                                            const QModelIndex& source_parent) const {
    if (query_.isEmpty()) return true;
    const QModelIndex idx = sourceModel()->index(source_row, 0, source_parent);
    const auto base = static_cast<uint16_t>(idx.data(PartitionListModel::PKeyRole).toUInt());
    const QString name =
        idx.siblingAtColumn(PartitionListModel::NameColumn).data(Qt::DisplayRole).toString();
    if (name.contains(query_, Qt::CaseInsensitive)) return true;
    // "3" is partition 0x0003, not every key with a 3 in it.
    if (pkey_) return *pkey_ == base;
    return qs(format_pkey(base)).contains(query_, Qt::CaseInsensitive) ||
           qs(format_pkey(base | 0x8000)).contains(query_, Qt::CaseInsensitive);
}

}  // namespace rdmadiag::gui::models
