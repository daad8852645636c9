#include "gui/models/counter_table_model.hpp"

#include <QStringList>

#include "collector/model/counter.hpp"
#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

void CounterTableModel::set_port(const PortSnapshot* port, TimePoint now) {
    const std::optional<PortRef> ref = port ? std::optional<PortRef>(port->ref) : std::nullopt;
    if (ref != port_) {
        beginResetModel();
        rows_.clear();
        port_ = ref;
        endResetModel();
    }
    now_ = now;
    replace_rows(rows_, port ? port->counters : std::vector<CounterState>{},
                 [](const CounterState& c) { return c.name; });
}

const CounterState* CounterTableModel::counter_at(int row) const {
    if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return nullptr;
    return &rows_[static_cast<size_t>(row)];
}

int CounterTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CounterTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CounterTableModel::data(const QModelIndex& index, int role) const {
    const CounterState* c = index.isValid() ? counter_at(index.row()) : nullptr;
    if (!c) return {};
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    return qs(c->name);
                case KindColumn:
                    return qs(to_string(c->kind));
                case WidthColumn:
                    return QStringLiteral("%1 bit").arg(c->width);
                case RawColumn:
                    return QString::number(c->raw);
                case TotalColumn:
                    return QString::number(c->total);
                case NotesColumn: {
                    QStringList notes;
                    if (c->saturated) notes << QStringLiteral("SATURATED");
                    if (c->resets) notes << QStringLiteral("%1 reset(s)").arg(c->resets);
                    if (c->wraps) notes << QStringLiteral("%1 wrap(s)").arg(c->wraps);
                    if (is_pkey_violation_counter(c->name)) notes << QStringLiteral("P_Key");
                    return notes.join(QStringLiteral(", "));
                }
                case UpdatedColumn:
                    return age_text(c->updated, now_);
            }
            return {};
        case SortRole:
            switch (index.column()) {
                case WidthColumn:
                    return c->width;
                case RawColumn:
                    return static_cast<qulonglong>(c->raw);
                case TotalColumn:
                    return static_cast<qulonglong>(c->total);
                case UpdatedColumn:
                    return static_cast<qlonglong>(c->updated.time_since_epoch().count());
                default:
                    return data(index, Qt::DisplayRole);
            }
        case CounterNameRole:
            return qs(c->name);
        case Qt::BackgroundRole:
            if (c->saturated) return QColor(0xfd, 0xe0, 0xe0);
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() == RawColumn || index.column() == TotalColumn) {
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            }
            return {};
        default:
            return {};
    }
}

QVariant CounterTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[] = {"Counter", "Kind",  "Width",  "Raw",
                                         "Total",   "Notes", "Updated"};
    if (section < 0 || section >= ColumnCount) return {};
    return QString::fromLatin1(kNames[section]);
}

}  // namespace rdmadiag::gui::models
