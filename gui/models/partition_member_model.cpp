#include "gui/models/partition_member_model.hpp"

#include <QFont>
#include <algorithm>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

std::optional<MemberView> view_of(int column) {
    if (column < PartitionMemberModel::IntentColumn || column > PartitionMemberModel::CacheColumn)
        return std::nullopt;
    return kAllMemberViews[column - PartitionMemberModel::IntentColumn];
}

bool compared(const PartitionMemberRow& m, MemberView v) {
    return m.difference != MemberDifference::none && (v == MemberView::intent || v == m.held_view);
}

QString difference_tooltip(const PartitionMemberRow& m) {
    const QString held = qs(to_string(m.held_view));
    switch (m.difference) {
        case MemberDifference::missing:
            return QStringLiteral(
                       "The intent makes it a member; its %1 view does not hold the "
                       "key: it cannot reach the partition.")
                .arg(held);
        case MemberDifference::unexpected:
            return QStringLiteral(
                       "Its %1 view holds the key, which the intent does not give it: "
                       "it can talk in a partition it should not be in.")
                .arg(held);
        case MemberDifference::mismatch:
            return QStringLiteral(
                       "Its %1 view holds the key with another membership than the "
                       "intent gives it (full against limited).")
                .arg(held);
        case MemberDifference::none:
            break;
    }
    return {};
}

}  // namespace

QColor difference_background(MemberDifference d) {
    switch (d) {
        case MemberDifference::missing:
            return QColor(0xfd, 0xe0, 0xe0);
        case MemberDifference::unexpected:
            return QColor(0xff, 0xf1, 0xd6);
        case MemberDifference::mismatch:
            return QColor(0xf3, 0xe8, 0xfa);
        case MemberDifference::none:
            break;
    }
    return {};
}

QColor difference_cell(MemberDifference d) {
    switch (d) {
        case MemberDifference::missing:
            return QColor(0xf8, 0xb4, 0xb4);
        case MemberDifference::unexpected:
            return QColor(0xff, 0xd5, 0x8a);
        case MemberDifference::mismatch:
            return QColor(0xdc, 0xc2, 0xef);
        case MemberDifference::none:
            break;
    }
    return {};
}

void PartitionMemberModel::set_members(uint16_t pkey, std::vector<PartitionMemberRow> members) {
    // The ports that differ first, each group in the order given (the engine's port order).
    std::stable_partition(members.begin(), members.end(), [](const PartitionMemberRow& m) {
        return m.difference != MemberDifference::none;
    });
    if (pkey_ == pkey && members == rows_) return;
    differing_ = static_cast<int>(std::count_if(
        members.begin(), members.end(),
        [](const PartitionMemberRow& m) { return m.difference != MemberDifference::none; }));
    if (pkey_ != pkey) {
        beginResetModel();
        pkey_ = pkey;
        rows_ = std::move(members);
        endResetModel();
        return;
    }
    replace_rows(rows_, std::move(members), [](const PartitionMemberRow& m) { return m.port; });
}

void PartitionMemberModel::clear() {
    differing_ = 0;
    beginResetModel();
    pkey_.reset();
    rows_.clear();
    endResetModel();
}

const PartitionMemberRow* PartitionMemberModel::row_at(int row) const {
    if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return nullptr;
    return &rows_[static_cast<size_t>(row)];
}

QString PartitionMemberModel::port_text(const PartitionMemberRow& m) const {
    // The NodeDescription the partition model carries, as `rdmadiag partitions` writes it.
    if (!m.node.empty()) return qs(m.node) + QStringLiteral(":") + QString::number(m.port.port);
    return names_ ? names_->port(m.port) : qs(m.port.to_string());
}

int PartitionMemberModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PartitionMemberModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PartitionMemberModel::data(const QModelIndex& index, int role) const {
    const PartitionMemberRow* m = index.isValid() ? row_at(index.row()) : nullptr;
    if (!m) return {};
    const int col = index.column();
    const auto view = view_of(col);
    switch (role) {
        case Qt::DisplayRole:
            if (view) {
                const auto holds = holding_name(m->in(*view));
                return holds.empty() ? QStringLiteral("-") : qs(holds);
            }
            switch (col) {
                case PortColumn:
                    return port_text(*m);
                case GuidColumn:
                    return m->guid ? QStringLiteral("0x%1").arg(*m->guid, 16, 16, QLatin1Char('0'))
                                   : QStringLiteral("-");
                case DifferenceColumn:
                    return m->difference == MemberDifference::none ? QString()
                                                                   : qs(to_string(m->difference));
            }
            return {};
        case SortRole:
            if (col == DifferenceColumn) return static_cast<int>(m->difference);
            return data(index, Qt::DisplayRole);
        case Qt::ToolTipRole:
            if (col == PortColumn) return qs(m->port.to_string());
            if (col == GuidColumn) return data(index, Qt::DisplayRole);  // elided in a narrow view
            if (view && compared(*m, *view)) {
                return *view == MemberView::intent
                           ? QStringLiteral("What the intent gives the port")
                           : QStringLiteral(
                                 "What the port holds: the view compared with the "
                                 "intent");
            }
            return difference_tooltip(*m);
        case Qt::BackgroundRole:
            if (m->difference == MemberDifference::none) return {};
            if (col == DifferenceColumn || (view && compared(*m, *view)))
                return difference_cell(m->difference);
            return difference_background(m->difference);
        case Qt::FontRole:
            if (view && compared(*m, *view)) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case DeviceRole:
            return qs(m->port.device);
        case PortNumberRole:
            return static_cast<int>(m->port.port);
        case DifferenceRole:
            return qs(to_string(m->difference));
        case ComparedRole:
            return view ? compared(*m, *view) : false;
        default:
            return {};
    }
}

QVariant PartitionMemberModel::headerData(int section, Qt::Orientation orientation,
                                          int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case PortColumn:
            return QStringLiteral("Port");
        case GuidColumn:
            return QStringLiteral("Port GUID");
        case IntentColumn:
            return QStringLiteral("Intent");
        case SmColumn:
            return QStringLiteral("SM");
        case SmaColumn:
            return QStringLiteral("SMA");
        case DeviceColumn:
            return QStringLiteral("Device");
        case CacheColumn:
            return QStringLiteral("Cache");
        case DifferenceColumn:
            return QStringLiteral("Difference");
    }
    return {};
}

}  // namespace rdmadiag::gui::models
