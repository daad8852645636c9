#include "gui/models/mr_table_model.hpp"

#include <algorithm>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {
constexpr std::string_view kNeedsDereg = "mr.needs_dereg";
}

void MrTableModel::set_snapshot(const Snapshot& snapshot) {
    now_ = snapshot.time;
    std::vector<Row> next;
    for (const auto& mr : snapshot.mrs.mrs) {
        Row row{mr, mr.state == MrState::stuck, std::nullopt};
        for (const auto& f : snapshot.findings) {
            if (!f.subject.mr || *f.subject.mr != mr.mr || f.subject.device != mr.device) continue;
            if (!row.severity || static_cast<int>(f.severity) > static_cast<int>(*row.severity)) {
                row.severity = f.severity;
            }
            if (f.rule == kNeedsDereg) row.needs_dereg = true;
        }
        next.push_back(std::move(row));
    }
    std::stable_sort(next.begin(), next.end(),
                     [](const Row& a, const Row& b) { return a.needs_dereg > b.needs_dereg; });
    replace_rows(rows_, std::move(next),
                 [](const Row& r) { return std::make_pair(r.mr.device, r.mr.mr); });
}

const MrTableModel::Row* MrTableModel::row_at(int row) const {
    if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return nullptr;
    return &rows_[static_cast<size_t>(row)];
}

QString MrTableModel::device_text(const std::string& device) const {
    return names_ ? names_->node(device) : qs(device);
}

int MrTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int MrTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MrTableModel::data(const QModelIndex& index, int role) const {
    const Row* r = index.isValid() ? row_at(index.row()) : nullptr;
    if (!r) return {};
    const MrRecord& mr = r->mr;
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case FlagColumn:
                    if (r->needs_dereg) return QStringLiteral("needs deregistration");
                    if (mr.state == MrState::unknown) return QStringLiteral("state unknown");
                    return QString();
                case DeviceColumn:
                    return device_text(mr.device);
                case MrColumn:
                    return QString::number(mr.mr);
                case KeyColumn:
                    return mr.key ? QStringLiteral("0x%1").arg(*mr.key, 8, 16, QLatin1Char('0'))
                                  : QString();
                case OwnerColumn:
                    return mr.owner.pid ? QStringLiteral("%1 (pid %2)")
                                              .arg(qs(mr.owner.name))
                                              .arg(*mr.owner.pid)
                                        : qs(mr.owner.name);
                case TransportColumn:
                    return qs(to_string(mr.transport));
                case StateColumn:
                    return qs(to_string(mr.state));
                case InStateColumn:
                    return age_text(mr.state_since, now_);
                case LastOpColumn:
                    if (!mr.last_op) return QString();
                    return qs(to_string(*mr.last_op)) +
                           (mr.last_status ? QStringLiteral(" ") + qs(to_string(*mr.last_status))
                                           : QString());
                case AdviceColumn:
                    return qs(mr.advice);
            }
            return {};
        case SortRole:
            switch (index.column()) {
                case FlagColumn:
                    return r->needs_dereg ? 0 : (mr.state == MrState::unknown ? 1 : 2);
                case MrColumn:
                    return static_cast<qulonglong>(mr.mr);
                case InStateColumn:
                    return static_cast<qlonglong>(mr.state_since.time_since_epoch().count());
                default:
                    return data(index, Qt::DisplayRole);
            }
        case StateRole:
            return qs(to_string(mr.state));
        case NeedsDeregRole:
            return r->needs_dereg;
        case Qt::BackgroundRole:
            if (r->needs_dereg) return severity_background(Severity::critical);
            if (mr.state == MrState::unknown) return severity_background(Severity::warning);
            if (mr.state == MrState::deregistered) return QColor(0xee, 0xee, 0xee);
            return {};
        case Qt::ForegroundRole:
            if (index.column() == FlagColumn && r->needs_dereg) {
                return severity_color(Severity::critical);
            }
            return {};
        case Qt::ToolTipRole:
            if (index.column() == DeviceColumn) {
                return names_ ? names_->with_key(mr.device) : qs(mr.device);
            }
            if (!mr.advice.empty()) return qs(mr.advice);
            return {};
        default:
            return {};
    }
}

QVariant MrTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[] = {"Flag",      "Device", "MR",       "Key",     "Owner",
                                         "Transport", "State",  "In state", "Last op", "Advice"};
    if (section < 0 || section >= ColumnCount) return {};
    return QString::fromLatin1(kNames[section]);
}

}  // namespace rdmadiag::gui::models
