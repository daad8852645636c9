#include "gui/models/gid_table_model.hpp"

#include <algorithm>
#include <set>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

const QColor kMissing(0xfd, 0xd8, 0xd8);

QString gid_text(const Gid& g) {
    return qs(g.to_string());
}

}  // namespace

void GidTableModel::set_port(const PortSnapshot* port, TimePoint now) {
    const std::optional<PortRef> next_ref =
        port ? std::optional<PortRef>(port->ref) : std::optional<PortRef>();
    const bool other_port = next_ref != port_;
    port_ = next_ref;
    data_ = port ? std::optional<PortGidState>(*port->gids) : std::nullopt;
    now_ = now;
    if (other_port) {
        beginResetModel();
        rows_.clear();
        endResetModel();
    }
    rebuild();
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void GidTableModel::rebuild() {
    std::vector<Row> next;
    if (data_) {
        const GidViewState* cache = data_->find(GidView::cache);
        const GidViewState* sma = data_->find(GidView::sma);
        const GidViewState* sm = data_->find(GidView::sm);
        const GidViewState* netdev = data_->find(GidView::netdev);
        std::set<uint16_t> indexes;
        for (const GidViewState* v : {cache, sma, sm}) {
            if (v == nullptr) continue;
            for (const auto& e : v->table.entries) indexes.insert(e.index);
        }
        std::set<std::pair<Gid, std::string>> on_netdev;
        std::set<std::string> covered;
        if (netdev != nullptr) {
            for (const auto& e : netdev->table.entries) {
                on_netdev.emplace(e.gid, e.ndev);
                covered.insert(e.ndev);
            }
        }
        for (uint16_t i : indexes) {
            Row r;
            r.index = i;
            if (cache != nullptr) {
                if (const auto* e = cache->table.at(i)) {
                    r.cache = *e;
                    r.ndev = e->ndev;
                }
            }
            if (sma != nullptr) {
                if (const auto* e = sma->table.at(i)) r.sma = e->gid;
            }
            if (sm != nullptr) {
                if (const auto* e = sm->table.at(i)) r.sm = e->gid;
            }
            if (r.sma && (!r.cache || !(r.cache->gid == *r.sma))) {
                r.state = RowState::differs_from_port;
            } else if (r.cache && r.cache->type != GidType::ib && covered.contains(r.ndev) &&
                       !on_netdev.contains({r.cache->gid, r.ndev})) {
                r.state = RowState::address_gone;
            }
            next.push_back(std::move(r));
        }
        if (netdev != nullptr && cache != nullptr) {
            std::set<std::pair<Gid, std::string>> in_cache;
            for (const auto& e : cache->table.entries) in_cache.emplace(e.gid, e.ndev);
            for (const auto& e : netdev->table.entries) {
                if (in_cache.contains({e.gid, e.ndev})) continue;
                Row r;
                r.missing = e.gid;
                r.ndev = e.ndev;
                r.state = RowState::missing_from_cache;
                next.push_back(std::move(r));
            }
        }
    }
    replace_rows(rows_, std::move(next),
                 [](const Row& r) { return std::make_pair(r.index, r.missing.value_or(Gid{})); });
}

GidCoherence GidTableModel::coherence() const {
    return data_ ? data_->coherence : GidCoherence::unknown;
}

QString GidTableModel::coherence_summary() const {
    if (!data_) return QStringLiteral("No port selected.");
    const PortGidState& g = *data_;
    if (g.views.empty()) return QStringLiteral("No GIDs read for this port.");
    const QString note = g.note.empty() ? QString() : QStringLiteral(": ") + qs(g.note);
    QString text;
    switch (g.coherence) {
        case GidCoherence::stale:
            text = QStringLiteral("GID cache STALE%1. rdma_cm and IPoIB use the cached GIDs.")
                       .arg(note);
            break;
        case GidCoherence::pending:
            text = QStringLiteral("GID cache differs, within the grace period%1.").arg(note);
            break;
        case GidCoherence::coherent:
            text = QStringLiteral("GID cache agrees with the port.");
            break;
        case GidCoherence::unknown:
            text = QStringLiteral("GID cache not judged%1.").arg(note);
            break;
    }
    auto when = [this](const std::optional<TimePoint>& t) {
        return t ? QStringLiteral(", last %1 ago").arg(age_text(*t, now_)) : QString();
    };
    text += QStringLiteral(" GID_CHANGE: %1%2; CLIENT_REREGISTER: %3%4.")
                .arg(g.gid_change_events)
                .arg(when(g.last_gid_change))
                .arg(g.client_reregister_events)
                .arg(when(g.last_client_reregister));
    return text;
}

bool GidTableModel::column_used(int column) const {
    return std::any_of(rows_.begin(), rows_.end(), [column](const Row& r) {
        switch (column) {
            case TypeColumn:
                return r.cache && r.cache->type != GidType::ib;
            case NetdevColumn:
                return !r.ndev.empty();
            case SmaColumn:
                return r.sma.has_value();
            case SmColumn:
                return r.sm.has_value();
            default:
                return true;
        }
    });
}

int GidTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int GidTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GidTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
    const Row& row = rows_[static_cast<size_t>(index.row())];
    const int col = index.column();
    const bool differs =
        (row.state == RowState::differs_from_port && (col == CacheColumn || col == SmaColumn)) ||
        (row.state != RowState::fine && row.state != RowState::differs_from_port &&
         (col == CacheColumn || col == StateColumn));
    switch (role) {
        case Qt::DisplayRole:
            switch (col) {
                case IndexColumn:
                    return row.index ? QVariant(*row.index) : QVariant(QStringLiteral("-"));
                case CacheColumn:
                    return row.cache ? gid_text(row.cache->gid) : QString();
                case TypeColumn:
                    return row.cache && row.cache->type != GidType::ib
                               ? qs(to_string(row.cache->type))
                               : QString();
                case NetdevColumn:
                    return qs(row.ndev);
                case SmaColumn:
                    return row.sma ? gid_text(*row.sma) : QString();
                case SmColumn:
                    return row.sm ? gid_text(*row.sm) : QString();
                case StateColumn:
                    switch (row.state) {
                        case RowState::fine:
                            return QString();
                        case RowState::differs_from_port:
                            return QStringLiteral("cache differs from the port");
                        case RowState::address_gone:
                            return QStringLiteral("address gone from %1").arg(qs(row.ndev));
                        case RowState::missing_from_cache:
                            return QStringLiteral("%1 has %2, the cache lacks it")
                                .arg(qs(row.ndev), gid_text(*row.missing));
                    }
                    return QString();
                default:
                    return {};
            }
        case SortRole:
            if (col == IndexColumn) return row.index ? QVariant(*row.index) : QVariant(1 << 20);
            return data(index, Qt::DisplayRole);
        case DiffersRole:
            return differs || (col == StateColumn && row.state != RowState::fine);
        case Qt::BackgroundRole:
            if (row.state == RowState::missing_from_cache) return kMissing;
            if (differs) return differs_background();
            return {};
        case Qt::TextAlignmentRole:
            if (col == IndexColumn) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
        default:
            return {};
    }
}

QVariant GidTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    auto view_header = [this](GidView v, const QString& title) {
        const GidViewState* s = data_ ? data_->find(v) : nullptr;
        if (s == nullptr) return title + QStringLiteral("\nnot read");
        return QStringLiteral("%1\ngen %2, %3 ago")
            .arg(title)
            .arg(s->generation)
            .arg(age_text(s->changed, now_));
    };
    switch (section) {
        case IndexColumn:
            return QStringLiteral("Index");
        case CacheColumn:
            return view_header(GidView::cache, QStringLiteral("cache"));
        case TypeColumn:
            return QStringLiteral("Type");
        case NetdevColumn:
            return QStringLiteral("Netdev");
        case SmaColumn:
            return view_header(GidView::sma, QStringLiteral("sma"));
        case SmColumn:
            return view_header(GidView::sm, QStringLiteral("sm"));
        case StateColumn:
            return view_header(GidView::netdev, QStringLiteral("Agrees?"));
        default:
            return {};
    }
}

}  // namespace rdmadiag::gui::models
