#include "gui/models/mr_process_model.hpp"

#include <QBrush>
#include <QColor>
#include <QLocale>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

QString bytes_text(uint64_t bytes) {
    return QLocale::c().formattedDataSize(static_cast<qint64>(bytes), 1,
                                          QLocale::DataSizeTraditionalFormat);
}

QString count_text(uint64_t n) {
    QLocale l = QLocale::c();
    l.setNumberOptions(QLocale::DefaultNumberOptions);
    return l.toString(static_cast<qulonglong>(n));
}

QString kernel_line(const MrKernelBehaviour& k) {
    switch (k.flushed_mrs) {
        case FlushedMrHandling::destroyed:
            return QObject::tr("kernel: flushed xprtrdma MRs are destroyed at teardown");
        case FlushedMrHandling::recovered:
            return QObject::tr("kernel: flushed xprtrdma MRs are recovered at once");
        case FlushedMrHandling::not_known:
            break;
    }
    return k.basis.empty() ? QString() : QObject::tr("kernel: handling of flushed MRs not known");
}

}  // namespace

void MrProcessModel::set_snapshot(const Snapshot& snapshot) {
    const MrUsage& u = snapshot.mrs.usage;
    std::vector<Row> next;
    next.reserve(u.processes.size() + 1);
    for (const auto& p : u.processes) next.push_back(Row{p, false});
    if (u.other_processes > 0) {
        Row other;
        other.other = true;
        other.usage.comm = std::to_string(u.other_processes);
        other.usage.mrs = u.other_mrs;
        other.usage.bytes = u.other_bytes;
        next.push_back(std::move(other));
    }
    replace_rows(rows_, std::move(next), [](const Row& r) {
        return std::make_tuple(r.other, r.usage.pid, r.usage.owner_gone, r.usage.comm);
    });
    QStringList parts;
    for (const auto& d : u.devices) {
        QString s = tr("%1: %2 MRs").arg(qs(d.device), count_text(d.mrs));
        if (d.max_mr && *d.max_mr > 0) {
            s = tr("%1: %2 of %3 MRs (%4%)")
                    .arg(qs(d.device), count_text(d.mrs), count_text(*d.max_mr))
                    .arg(100.0 * static_cast<double>(d.mrs) / static_cast<double>(*d.max_mr), 0,
                         'f', 1);
        }
        if (d.exhaustion_near) s += tr(", near max_mr");
        if (d.owner_gone_mrs)
            s += tr(", %1 without a live owner").arg(count_text(d.owner_gone_mrs));
        parts << s;
    }
    if (QString k = kernel_line(snapshot.mrs.kernel); !k.isEmpty()) parts << k;
    summary_ = parts.join(QStringLiteral(" · "));
}

int MrProcessModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int MrProcessModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MrProcessModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& r = rows_[static_cast<size_t>(index.row())];
    const MrProcessUsage& p = r.usage;
    const bool flagged = p.leak_suspected || p.owner_gone;
    if (role == FlaggedRole) return flagged;
    if (role == Qt::BackgroundRole) {
        return flagged ? QVariant(QBrush(QColor(0xfd, 0xe0, 0xe0))) : QVariant();
    }
    if (role == SortRole) {
        switch (index.column()) {
            case PidColumn:
                return p.pid ? QVariant(static_cast<qulonglong>(*p.pid)) : QVariant(-1);
            case MrsColumn:
                return static_cast<qulonglong>(p.mrs);
            case BytesColumn:
                return static_cast<qulonglong>(p.bytes);
            case GrowthColumn:
                return static_cast<qlonglong>(p.mrs_growth);
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole && flagged) {
        return p.leak_suspected
                   ? tr("Its MRs rose throughout the leak window (mr.leak_suspected)")
                   : tr("Listed without a live process: the owner exited but its verbs file "
                        "lives on (mr.owner_gone)");
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case PidColumn:
            return p.pid ? QString::number(*p.pid) : QStringLiteral("-");
        case ProcessColumn:
            if (r.other) return tr("other (%1 processes)").arg(qs(p.comm));
            if (p.owner_gone) return tr("(exited)");
            return p.pid ? qs(p.comm) : QStringLiteral("[%1]").arg(qs(p.comm));
        case MrsColumn:
            return count_text(p.mrs);
        case BytesColumn:
            return bytes_text(p.bytes);
        case GrowthColumn:
            if (r.other || p.growth_over <= Duration::zero()) return QStringLiteral("-");
            return tr("%1%2 in %3")
                .arg(p.mrs_growth > 0 ? QStringLiteral("+") : QString())
                .arg(p.mrs_growth)
                .arg(qs(format_duration(p.growth_over)));
        case DevicesColumn: {
            QStringList d;
            for (const auto& name : p.devices) d << qs(name);
            return d.join(QStringLiteral(", "));
        }
        case FlagsColumn: {
            QStringList f;
            if (p.leak_suspected) f << tr("leak suspected");
            if (p.owner_gone) f << tr("owner gone");
            return f.join(QStringLiteral(", "));
        }
        default:
            return {};
    }
}

QVariant MrProcessModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case PidColumn:
            return tr("PID");
        case ProcessColumn:
            return tr("Process");
        case MrsColumn:
            return tr("MRs");
        case BytesColumn:
            return tr("Registered");
        case GrowthColumn:
            return tr("Growth");
        case DevicesColumn:
            return tr("Devices");
        case FlagsColumn:
            return tr("Flags");
        default:
            return {};
    }
}

}  // namespace rdmadiag::gui::models
