#include "gui/models/consumer_table_model.hpp"

#include <algorithm>
#include <map>

#include "collector/model/consumer_hits.hpp"
#include "collector/model/pkey.hpp"
#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

QString owner_text(const ConsumerOwner& owner) {
    if (owner.pid) return QStringLiteral("%1 (pid %2)").arg(qs(owner.name)).arg(*owner.pid);
    return owner.name.empty() ? QStringLiteral("kernel") : qs(owner.name);
}

QString index_text(const Consumer& c) {
    if (!c.pkey_index) return {};
    const QString n = QString::number(*c.pkey_index);
    return c.index_source == IndexSource::inferred ? QStringLiteral("%1 (inferred)").arg(n) : n;
}

QString type_text(const Consumer& c) {
    if (c.mode.empty()) return qs(c.qp_type);
    return QStringLiteral("%1, %2").arg(qs(c.qp_type), qs(c.mode));
}

QString state_text(const Consumer& c) {
    QString s = qs(c.state);
    if (c.carrier) {
        const QString carrier =
            *c.carrier ? QStringLiteral("carrier on") : QStringLiteral("carrier off");
        s = s.isEmpty() ? carrier : QStringLiteral("%1, %2").arg(s, carrier);
    }
    return s;
}

// A stable identity for a row: the same consumer keeps its row (and selection) across polls.
std::tuple<ConsumerKind, std::string, std::optional<uint32_t>, std::string> row_key(
    const Consumer& c) {
    return {c.kind, c.name, c.owner.pid, c.owner.name};
}

}  // namespace

void ConsumerTableModel::set_port(const HostConsumers* consumers, const PortSnapshot* port,
                                  const std::vector<Finding>& findings) {
    const std::optional<PortRef> ref = port ? std::optional<PortRef>(port->ref) : std::nullopt;
    if (ref != port_) {
        beginResetModel();
        rows_.clear();
        endResetModel();
    }
    port_ = ref;
    listed_ = false;
    complete_ = true;
    notes_.clear();
    std::vector<Row> next;
    if (consumers && port) {
        for (const auto& inv : consumers->devices) {
            if (inv.device != port->ref.device) continue;
            listed_ = true;
            complete_ = inv.complete;
            QStringList notes;
            for (const auto& n : inv.notes) notes << qs(n);
            notes_ = notes.join(QStringLiteral("; "));
            for (const auto& c : inv.consumers) {
                if (c.port != port->ref.port) continue;
                Row r{c, {}, {}, std::nullopt};
                QStringList rules;
                QStringList tips;
                for (const auto& f : findings) {
                    if (f.cleared || !finding_hits(f, c, *port)) continue;
                    rules << qs(f.rule);
                    tips << QStringLiteral("%1: %2").arg(qs(f.rule), qs(f.evidence));
                    if (!r.worst || f.severity > *r.worst) r.worst = f.severity;
                }
                r.hit_text = rules.join(QStringLiteral(", "));
                r.hit_tip = tips.join(QLatin1Char('\n'));
                next.push_back(std::move(r));
            }
        }
    }
    replace_rows(rows_, std::move(next), [](const Row& r) { return row_key(r.consumer); });
}

QString ConsumerTableModel::summary() const {
    if (!port_) return QStringLiteral("Select a port to see who uses it.");
    if (!listed_) {
        return QStringLiteral(
                   "No consumer listing for %1: no consumers source reported for this device "
                   "(it reads the local host only; a subnet sweep has none).")
            .arg(qs(port_->device));
    }
    std::map<ConsumerKind, uint32_t> kinds;
    int hit = 0;
    for (const auto& r : rows_) {
        kinds[r.consumer.kind] += r.consumer.count;
        if (!r.hit_text.isEmpty()) ++hit;
    }
    QStringList parts;
    for (const auto& [kind, n] : kinds)
        parts << QStringLiteral("%1 %2").arg(n).arg(qs(to_string(kind)));
    QString text = parts.isEmpty()
                       ? QStringLiteral("No consumers on this port.")
                       : QStringLiteral("Consumers: %1.").arg(parts.join(QStringLiteral(", ")));
    if (hit > 0) {
        text += hit == 1 ? QStringLiteral(" 1 hit by a finding.")
                         : QStringLiteral(" %1 hit by a finding.").arg(hit);
    }
    if (!complete_) {
        text += QStringLiteral(" The listing is incomplete (%1): what is missing proves nothing.")
                    .arg(notes_.isEmpty() ? QStringLiteral("cut short") : notes_);
    }
    return text;
}

std::optional<int> ConsumerTableModel::first_hit_row() const {
    for (size_t i = 0; i < rows_.size(); ++i) {
        if (!rows_[i].hit_text.isEmpty()) return static_cast<int>(i);
    }
    return std::nullopt;
}

int ConsumerTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ConsumerTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConsumerTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
    const Row& r = rows_[static_cast<size_t>(index.row())];
    const Consumer& c = r.consumer;
    if (role == HitRole) return !r.hit_text.isEmpty();
    if (role == Qt::BackgroundRole) {
        return r.worst ? QVariant(severity_background(*r.worst)) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        QStringList tip;
        if (!c.parent.empty()) tip << QStringLiteral("child of %1").arg(qs(c.parent));
        if (!c.address.empty()) tip << QStringLiteral("address %1").arg(qs(c.address));
        if (c.carrier_changes) tip << QStringLiteral("carrier changes: %1").arg(*c.carrier_changes);
        if (c.index_source == IndexSource::inferred) {
            tip << QStringLiteral("index inferred: the kernel's rule applied to the table as read");
        }
        if (!r.hit_tip.isEmpty()) tip << r.hit_tip;
        return tip.isEmpty() ? QVariant() : QVariant(tip.join(QLatin1Char('\n')));
    }
    if (role == SortRole) {
        switch (index.column()) {
            case KindColumn:
                return static_cast<int>(c.kind);
            case PKeyColumn:
                return c.pkey ? QVariant(pkey_base(*c.pkey)) : QVariant(-1);
            case IndexColumn:
                return c.pkey_index ? QVariant(*c.pkey_index) : QVariant(-1);
            case CountColumn:
                return c.count;
            default:
                break;
        }
        role = Qt::DisplayRole;
    }
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case KindColumn:
            return qs(to_string(c.kind));
        case NameColumn:
            return qs(c.name);
        case OwnerColumn:
            return owner_text(c.owner);
        case PKeyColumn:
            return c.pkey ? pkey_text(*c.pkey) : QString();
        case IndexColumn:
            return index_text(c);
        case GidColumn:
            return c.gid ? qs(c.gid->to_string()) : QString();
        case TypeColumn:
            return type_text(c);
        case StateColumn:
            return state_text(c);
        case CountColumn:
            return c.count;
        case HitColumn:
            return r.hit_text;
        default:
            return {};
    }
}

QVariant ConsumerTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case KindColumn:
            return QStringLiteral("Kind");
        case NameColumn:
            return QStringLiteral("Name");
        case OwnerColumn:
            return QStringLiteral("Owner");
        case PKeyColumn:
            return QStringLiteral("P_Key");
        case IndexColumn:
            return QStringLiteral("Index");
        case GidColumn:
            return QStringLiteral("Source GID");
        case TypeColumn:
            return QStringLiteral("QP type");
        case StateColumn:
            return QStringLiteral("State");
        case CountColumn:
            return QStringLiteral("Count");
        case HitColumn:
            return QStringLiteral("Hit by");
        default:
            return {};
    }
}

}  // namespace rdmadiag::gui::models
