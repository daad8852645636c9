#include "gui/models/pkey_table_model.hpp"

#include <algorithm>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

constexpr int kViewColumns = 4;

QColor change_color(PKeyChangeKind c) {
    switch (c) {
        case PKeyChangeKind::added:
            return QColor(0xd7, 0xf5, 0xdd);
        case PKeyChangeKind::removed:
            return QColor(0xfd, 0xd8, 0xd8);
        case PKeyChangeKind::moved:
            return QColor(0xd6, 0xe6, 0xfb);
        case PKeyChangeKind::membership_changed:
            return QColor(0xec, 0xdc, 0xf7);
    }
    return {};
}

QString change_text(const PKeyEntryChange& c) {
    switch (c.kind) {
        case PKeyChangeKind::added:
            return QStringLiteral("added %1").arg(qs(format_pkey(c.new_key)));
        case PKeyChangeKind::removed:
            return QStringLiteral("removed %1").arg(qs(format_pkey(c.old_key)));
        case PKeyChangeKind::moved:
            return QStringLiteral("moved %1 from index %2")
                .arg(qs(format_pkey(c.new_key)))
                .arg(c.old_index.value_or(0));
        case PKeyChangeKind::membership_changed:
            return QStringLiteral("membership %1 -> %2")
                .arg(qs(format_pkey(c.old_key)), qs(format_pkey(c.new_key)));
    }
    return {};
}

}  // namespace

void PKeyTableModel::set_port(const PortSnapshot* port, TimePoint now) {
    const std::optional<PortRef> next_ref =
        port ? std::optional<PortRef>(port->ref) : std::optional<PortRef>();
    const bool other_port = next_ref != port_;
    port_ = next_ref;
    data_ = port ? std::optional<PortSnapshot>(*port) : std::nullopt;
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
        if (const auto& diff = data_->pkeys.last_diff) {
            for (const auto& c : diff->changes) {
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

CacheJudgement PKeyTableModel::cache_judgement() const {
    return data_ ? data_->pkeys.cache : CacheJudgement::unknown;
}

QString PKeyTableModel::cache_summary() const {
    if (!data_) return QStringLiteral("No port selected.");
    const PortPKeyState& st = data_->pkeys;
    // The engine's note says why; an older daemon may send the judgement without one.
    const QString note =
        st.cache_note.empty() ? QString() : QStringLiteral(": ") + qs(st.cache_note);
    switch (st.cache) {
        case CacheJudgement::stale: {
            QString since;
            if (st.stale_since) {
                since = QStringLiteral(" since %1 (%2 ago)")
                            .arg(clock_text(*st.stale_since), age_text(*st.stale_since, now_));
            }
            return QStringLiteral(
                       "Cache STALE%1%2. Consumers that rely on PKEY_CHANGE have not reloaded.")
                .arg(since, note);
        }
        case CacheJudgement::pending:
            return QStringLiteral("Cache pending%1.").arg(note);
        case CacheJudgement::coherent:
            return QStringLiteral("Cache coherent%1.").arg(note);
        case CacheJudgement::not_watched:
            return QStringLiteral("Cache not judged%1.").arg(note);
        case CacheJudgement::unknown:
            break;
    }
    if (!data_->pkeys.find(PKeyView::device)) {
        return QStringLiteral("No device view of this port's table yet.");
    }
    return QStringLiteral("Cache not judged yet%1.").arg(note);
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
            if (differs) return differs_background();
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
        if (const auto* diff =
                data_ && data_->pkeys.last_diff ? &*data_->pkeys.last_diff : nullptr) {
            return QStringLiteral("Last change\ngen %1 -> %2, %3 ago")
                .arg(diff->old_generation)
                .arg(diff->new_generation)
                .arg(age_text(diff->time, now_));
        }
        return QStringLiteral("Last change\nnone seen");
    }
    return {};
}

}  // namespace rdmadiag::gui::models
