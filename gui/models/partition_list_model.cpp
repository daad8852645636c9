#include "gui/models/partition_list_model.hpp"

#include <algorithm>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

const QColor kDifferingRow(0xff, 0xf1, 0xd6);

}  // namespace

QString member_counts_text(const MemberCounts& c) {
    if (c.full + c.limited + c.both == 0) return QStringLiteral("-");
    return QStringLiteral("%1/%2").arg(c.full + c.both).arg(c.limited + c.both);
}

void PartitionListModel::set_listing(const PartitionListing& listing) {
    if (listing.intent == intent_ && listing.partitions == rows_) return;  // nothing to repaint
    intent_ = listing.intent;
    replace_rows(rows_, listing.partitions, [](const PartitionRow& r) { return r.pkey; });
}

void PartitionListModel::update_row(const PartitionRow& row) {
    const int r = row_of(row.pkey);
    if (r < 0 || rows_[static_cast<size_t>(r)] == row) return;
    rows_[static_cast<size_t>(r)] = row;
    Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
}

void PartitionListModel::set_findings(const std::vector<Finding>& findings) {
    std::map<uint16_t, FindingCount> next;
    for (const auto& f : findings) {
        // A finding about a partition names its P_Key alone.
        if (!f.subject.device.empty() || !f.subject.pkey) continue;
        auto& c = next[pkey_base(*f.subject.pkey)];
        if (c.count++ == 0 || f.severity > c.worst) c.worst = f.severity;
    }
    if (next.size() == findings_.size() &&
        std::equal(next.begin(), next.end(), findings_.begin(), [](const auto& a, const auto& b) {
            return a.first == b.first && a.second.count == b.second.count &&
                   a.second.worst == b.second.worst;
        })) {
        return;
    }
    findings_ = std::move(next);
    if (!rows_.empty()) {
        Q_EMIT dataChanged(index(0, FindingsColumn), index(rowCount() - 1, FindingsColumn));
    }
}

void PartitionListModel::clear() {
    intent_ = false;
    if (rows_.empty()) return;
    beginResetModel();
    rows_.clear();
    endResetModel();
}

const PartitionRow* PartitionListModel::row_at(int row) const {
    if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return nullptr;
    return &rows_[static_cast<size_t>(row)];
}

int PartitionListModel::row_of(uint16_t pkey) const {
    for (size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].pkey == pkey) return static_cast<int>(i);
    }
    return -1;
}

int PartitionListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PartitionListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

std::optional<MemberView> PartitionListModel::view_of(int column) const {
    if (column < IntentColumn || column > CacheColumn) return std::nullopt;
    return kAllMemberViews[column - IntentColumn];
}

bool PartitionListModel::differs_from_intent(const PartitionRow& row, MemberView v) const {
    // Only where the partition is judged: elsewhere the intent says nothing about it.
    if (!row.differences || v == MemberView::intent) return false;
    return row.counts[static_cast<size_t>(v)] !=
           row.counts[static_cast<size_t>(MemberView::intent)];
}

QVariant PartitionListModel::data(const QModelIndex& index, int role) const {
    const PartitionRow* r = index.isValid() ? row_at(index.row()) : nullptr;
    if (!r) return {};
    const int col = index.column();
    const auto view = view_of(col);
    const auto found = findings_.find(r->pkey);
    const FindingCount findings = found == findings_.end() ? FindingCount{} : found->second;
    const int differences = r->differences ? static_cast<int>(*r->differences) : -1;
    switch (role) {
        case Qt::DisplayRole:
            if (view) return member_counts_text(r->counts[static_cast<size_t>(*view)]);
            switch (col) {
                case PKeyColumn:
                    return qs(format_pkey(r->pkey));
                case NameColumn:
                    return r->name.empty() ? QStringLiteral("-") : qs(r->name);
                case DiffersColumn:
                    return differences < 0 ? QStringLiteral("-") : QString::number(differences);
                case FindingsColumn:
                    return findings.count == 0 ? QString() : QString::number(findings.count);
            }
            return {};
        case SortRole:
            if (view) {
                const auto& c = r->counts[static_cast<size_t>(*view)];
                return static_cast<qlonglong>(c.full + c.limited + c.both);
            }
            switch (col) {
                case PKeyColumn:
                    return r->pkey;
                case DiffersColumn:
                    return differences;
                case FindingsColumn:
                    return findings.count;
                default:
                    return data(index, Qt::DisplayRole);
            }
        case Qt::ToolTipRole: {
            if (view) {
                const auto& c = r->counts[static_cast<size_t>(*view)];
                return QStringLiteral("%1 view: %2 full, %3 limited, %4 both")
                    .arg(qs(to_string(*view)))
                    .arg(c.full)
                    .arg(c.limited)
                    .arg(c.both);
            }
            QString where = !intent_      ? QStringLiteral("no intent given")
                            : r->intended ? QStringLiteral("in partitions.conf")
                                          : QStringLiteral("not in partitions.conf");
            if (differences < 0 && intent_) where += QStringLiteral(", not judged");
            return QStringLiteral("%1%2 (%3)")
                .arg(qs(format_pkey(r->pkey)),
                     r->name.empty() ? QString() : QStringLiteral(" ") + qs(r->name), where);
        }
        case Qt::BackgroundRole:
            if (view && differs_from_intent(*r, *view)) return differs_background();
            if (col == FindingsColumn && findings.count > 0)
                return severity_background(findings.worst);
            if (differences > 0) return col == DiffersColumn ? differs_background() : kDifferingRow;
            return {};
        case Qt::ForegroundRole:
            if (col == NameColumn && intent_ && !r->intended) return QColor(0x75, 0x75, 0x75);
            return {};
        case Qt::TextAlignmentRole:
            if (view || col == DiffersColumn || col == FindingsColumn)
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        case PKeyRole:
            return r->pkey;
        case DifferencesRole:
            return differences;
        case DiffersFromIntentRole:
            return view ? differs_from_intent(*r, *view) : false;
        case FindingsRole:
            return findings.count;
        default:
            return {};
    }
}

QVariant PartitionListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        if (view_of(section)) {
            return QStringLiteral(
                "Member ports in this view: full/limited (a port holding both "
                "is counted in each)");
        }
        if (section == DiffersColumn) {
            return QStringLiteral(
                "Member ports whose tables do not hold what partitions.conf "
                "says (- where the partition is not judged)");
        }
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
        case PKeyColumn:
            return QStringLiteral("P_Key");
        case NameColumn:
            return QStringLiteral("Name");
        case IntentColumn:
            return QStringLiteral("Intent F/L");
        case SmColumn:
            return QStringLiteral("SM F/L");
        case SmaColumn:
            return QStringLiteral("SMA F/L");
        case DeviceColumn:
            return QStringLiteral("Device F/L");
        case CacheColumn:
            return QStringLiteral("Cache F/L");
        case DiffersColumn:
            return QStringLiteral("Differ");
        case FindingsColumn:
            return QStringLiteral("Findings");
    }
    return {};
}

}  // namespace rdmadiag::gui::models
