#include "gui/models/pkey_table_model.hpp"

#include <algorithm>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui {

namespace {

constexpr int kViewColumns = 4;

QColor change_color(PKeyChange c) {
    switch (c) {
        case PKeyChange::added:
            return QColor(0xd7, 0xf5, 0xdd);
        case PKeyChange::removed:
            return QColor(0xfd, 0xd8, 0xd8);
        case PKeyChange::moved:
            return QColor(0xd6, 0xe6, 0xfb);
        case PKeyChange::membership:
            return QColor(0xec, 0xdc, 0xf7);
    }
    return {};
}

QString change_text(const PKeyIndexChange& c) {
    switch (c.kind) {
        case PKeyChange::added:
            return QStringLiteral("added %1").arg(qs(format_pkey(c.new_key)));
        case PKeyChange::removed:
            return QStringLiteral("removed %1").arg(qs(format_pkey(c.old_key)));
        case PKeyChange::moved:
            return QStringLiteral("moved %1 from index %2")
                .arg(qs(format_pkey(c.new_key)))
                .arg(c.old_index.value_or(0));
        case PKeyChange::membership:
            return QStringLiteral("membership %1 -> %2")
                .arg(qs(format_pkey(c.old_key)), qs(format_pkey(c.new_key)));
    }
    return {};
}

const QColor kDiffers(0xff, 0xe0, 0xa0);

}  // namespace

void PKeyTableModel::set_port(const PortSnapshot* port, const PKeyTableChange* last_change,
                              TimePoint now) {
    const std::optional<PortRef> next_ref =
        port ? std::optional<PortRef>(port->ref) : std::optional<PortRef>();
    const bool other_port = next_ref != port_;
    port_ = next_ref;
    data_ = port ? std::optional<PortSnapshot>(*port) : std::nullopt;
    change_ = last_change ? std::optional<PKeyTableChange>(*last_change) : std::nullopt;
    now_ = now;
    if (other_port) {
        beginResetModel();
        rows_.clear();
        endResetModel();
    }
    rebuild();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void PKeyTableModel::set_show_empty(bool show) {
    if (show == show_empty_) return;
    show_empty_ = show;
    rebuild();
}

void PKeyTableModel::rebuild() {
    headers_ = {};
    cache_differs_ = false;
    std::vector<Row> next;
    if (data_) {
        size_t size = 0;
        for (const auto& v : data_->pkeys.views) size = std::max(size, v.table.keys.size());
        next.resize(size);
        for (size_t i = 0; i < size; ++i) next[i].index = static_cast<uint16_t>(i);
        for (const auto& v : data_->pkeys.views) {
            const auto col = static_cast<size_t>(v.view);
            if (col >= kViewColumns) continue;
            headers_[col] = {true, v.generation, v.changed, v.source};
            for (size_t i = 0; i < v.table.keys.size(); ++i) {
                const bool unreadable =
                    std::find(v.table.unreadable.begin(), v.table.unreadable.end(),
                              static_cast<uint16_t>(i)) != v.table.unreadable.end();
                next[i].views[col] =
                    Cell{unreadable ? std::nullopt : std::optional<uint16_t>(v.table.keys[i]),
                         unreadable};
            }
        }
        const auto* dev = data_->pkeys.find(PKeyView::device);
        const auto* cache = data_->pkeys.find(PKeyView::cache);
        cache_differs_ = dev && cache && !(dev->table.keys == cache->table.keys);
        if (change_) {
            for (const auto& c : change_->changes) {
                if (c.index < next.size()) next[c.index].change = c;
            }
        }
        if (!show_empty_) {
            std::erase_if(next, [](const Row& r) {
                if (r.change) return false;
                return std::all_of(r.views.begin(), r.views.end(), [](const Cell& c) {
                    return !c.unreadable && (!c.raw || pkey_is_empty(*c.raw));
                });
            });
        }
    }
    replace_rows(rows_, std::move(next), [](const Row& r) { return r.index; });
}

QString PKeyTableModel::cache_summary() const {
    if (!data_) return QStringLiteral("No port selected.");
    const auto* dev = data_->pkeys.find(PKeyView::device);
    const auto* cache = data_->pkeys.find(PKeyView::cache);
    if (!dev) return QStringLiteral("No device view of this port's table yet.");
    if (!cache) return QStringLiteral("No cache view: no event-driven consumer is emulated here.");
    if (!cache_differs_) {
        return QStringLiteral("Cache coherent with the device (generation %1).")
            .arg(dev->generation);
    }
    return QStringLiteral(
               "Cache STALE: it still holds the table from before generation %1 of the device "
               "view, changed %2 ago at %3. Consumers that rely on PKEY_CHANGE have not reloaded.")
        .arg(dev->generation)
        .arg(age_text(dev->changed, now_), clock_text(dev->changed));
}

int PKeyTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PKeyTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PKeyTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
    const Row& row = rows_[static_cast<size_t>(index.row())];
    const int col = index.column();
    const bool is_view = col >= DeviceColumn && col <= CacheColumn;
    const Cell* cell = is_view ? &row.views[static_cast<size_t>(col - DeviceColumn)] : nullptr;
    const Cell& device = row.views[0];
    const bool differs = cell && col != DeviceColumn &&
                         headers_[static_cast<size_t>(col - DeviceColumn)].present &&
                         headers_[0].present && !cell->unreadable && !device.unreadable &&
                         cell->raw.value_or(0) != device.raw.value_or(0);
    switch (role) {
        case Qt::DisplayRole:
            if (col == IndexColumn) return row.index;
            if (col == ChangeColumn) return row.change ? change_text(*row.change) : QString();
            if (!headers_[static_cast<size_t>(col - DeviceColumn)].present) return QString();
            if (cell->unreadable) return QStringLiteral("unreadable");
            if (!cell->raw) return QString();
            if (pkey_is_empty(*cell->raw)) return QStringLiteral("(empty)");
            return pkey_text(*cell->raw);
        case SortRole:
            if (col == IndexColumn) return row.index;
            if (cell) return cell->raw ? QVariant(static_cast<int>(*cell->raw)) : QVariant(-1);
            return data(index, Qt::DisplayRole);
        case RawKeyRole:
            if (cell && cell->raw) return static_cast<int>(*cell->raw);
            return {};
        case DiffersRole:
            return differs;
        case ChangeKindRole:
            return row.change ? qs(to_string(row.change->kind)) : QString();
        case Qt::BackgroundRole:
            if ((col == ChangeColumn || col == DeviceColumn) && row.change) {
                return change_color(row.change->kind);
            }
            if (differs) return kDiffers;
            return {};
        case Qt::ToolTipRole:
            if (differs) {
                return QStringLiteral("This view differs from the device (%1)")
                    .arg(device.raw ? qs(format_pkey(*device.raw)) : QStringLiteral("none"));
            }
            if (row.change) return change_text(*row.change);
            return {};
        case Qt::TextAlignmentRole:
            if (col == IndexColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        default:
            return {};
    }
}

QVariant PKeyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (section >= DeviceColumn && section <= CacheColumn) {
        const auto& h = headers_[static_cast<size_t>(section - DeviceColumn)];
        const QString name = qs(to_string(static_cast<PKeyView>(section - DeviceColumn)));
        if (role == Qt::DisplayRole) {
            if (!h.present) return name + QStringLiteral("\nnot read");
            return QStringLiteral("%1\ngen %2, %3 ago")
                .arg(name)
                .arg(h.generation)
                .arg(age_text(h.changed, now_));
        }
        if (role == Qt::ToolTipRole && h.present) {
            return QStringLiteral("%1 view from %2, generation %3 since %4")
                .arg(name, qs(h.source))
                .arg(h.generation)
                .arg(full_time_text(h.changed));
        }
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    if (section == IndexColumn) return QStringLiteral("Index");
    if (section == ChangeColumn) {
        if (change_) {
            return QStringLiteral("Last change\ngen %1 -> %2, %3 ago")
                .arg(change_->old_generation)
                .arg(change_->new_generation)
                .arg(age_text(change_->time, now_));
        }
        return QStringLiteral("Last change\nnone seen");
    }
    return {};
}

}  // namespace rdmadiag::gui
