#include "gui/models/port_tree_model.hpp"

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

void raise(std::optional<Severity>& worst, Severity s) {
    if (!worst || static_cast<int>(s) > static_cast<int>(*worst)) worst = s;
}

QString device_kind(const DeviceInfo& info) {
    switch (info.transport) {
        case Transport::ib:
            return QStringLiteral("InfiniBand");
        case Transport::roce:
            return QStringLiteral("RoCE");
        case Transport::iwarp:
            return QStringLiteral("iWARP");
        case Transport::unknown:
            break;
    }
    return info.node_type ? qs(*info.node_type) : QString();
}

QString port_state_text(const PortSnapshot& p) {
    if (!p.present) return QStringLiteral("gone");
    if (!p.info.state) return QStringLiteral("?");
    return qs(to_string(*p.info.state));
}

QString health_text(const std::optional<Severity>& worst, int findings) {
    if (!worst) return QStringLiteral("ok");
    return QStringLiteral("%1 (%2)").arg(qs(to_string(*worst))).arg(findings);
}

bool same_shape(const std::vector<PortTreeModel::DeviceNode>& a,
                const std::vector<PortTreeModel::DeviceNode>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].name != b[i].name || a[i].ports.size() != b[i].ports.size()) return false;
        for (size_t j = 0; j < a[i].ports.size(); ++j) {
            if (a[i].ports[j].ref != b[i].ports[j].ref) return false;
        }
    }
    return true;
}

}  // namespace

void PortTreeModel::set_snapshot(const Snapshot& snapshot) {
    std::vector<DeviceNode> next;
    for (const auto& d : snapshot.devices) {
        DeviceNode dn;
        dn.name = qs(d.info.device);
        dn.kind = device_kind(d.info);
        dn.present = d.present;
        for (const auto& p : d.ports) {
            PortNode pn;
            pn.ref = p.ref;
            pn.state = port_state_text(p);
            pn.rate = p.info.rate ? qs(*p.info.rate) : QString();
            pn.present = p.present;
            dn.ports.push_back(pn);
        }
        next.push_back(std::move(dn));
    }
    for (const auto& f : snapshot.findings) {
        for (auto& dn : next) {
            if (dn.name != qs(f.subject.device)) continue;
            raise(dn.worst, f.severity);
            ++dn.findings;
            if (!f.subject.port) continue;
            for (auto& pn : dn.ports) {
                if (pn.ref.port != *f.subject.port) continue;
                raise(pn.worst, f.severity);
                ++pn.findings;
            }
        }
    }
    if (!same_shape(devices_, next)) {
        beginResetModel();
        devices_ = std::move(next);
        endResetModel();
        return;
    }
    devices_ = std::move(next);
    for (int d = 0; d < static_cast<int>(devices_.size()); ++d) {
        const QModelIndex dev = index(d, 0);
        Q_EMIT dataChanged(dev, index(d, ColumnCount - 1));
        const int ports = rowCount(dev);
        if (ports > 0) {
            Q_EMIT dataChanged(index(0, 0, dev), index(ports - 1, ColumnCount - 1, dev));
        }
    }
}

QModelIndex PortTreeModel::index_of(const PortRef& ref) const {
    for (size_t d = 0; d < devices_.size(); ++d) {
        for (size_t p = 0; p < devices_[d].ports.size(); ++p) {
            if (devices_[d].ports[p].ref == ref) {
                return createIndex(static_cast<int>(p), 0, static_cast<quintptr>(d + 1));
            }
        }
    }
    return {};
}

std::optional<PortRef> PortTreeModel::port_at(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == 0) return std::nullopt;
    const auto& dev = devices_[index.internalId() - 1];
    return dev.ports[static_cast<size_t>(index.row())].ref;
}

QModelIndex PortTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, quintptr{0});
    return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex PortTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int PortTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(devices_.size());
    if (parent.internalId() != 0 || parent.column() != 0) return 0;
    return static_cast<int>(devices_[static_cast<size_t>(parent.row())].ports.size());
}

int PortTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant PortTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const bool is_port = index.internalId() != 0;
    const DeviceNode& dev =
        devices_[is_port ? index.internalId() - 1 : static_cast<size_t>(index.row())];
    const PortNode* port = is_port ? &dev.ports[static_cast<size_t>(index.row())] : nullptr;
    const std::optional<Severity> worst = port ? port->worst : dev.worst;
    const int findings = port ? port->findings : dev.findings;
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    if (port) return QStringLiteral("port %1").arg(port->ref.port);
                    return dev.kind.isEmpty() ? dev.name
                                              : QStringLiteral("%1 (%2)").arg(dev.name, dev.kind);
                case StateColumn:
                    if (port) return port->state;
                    return dev.present ? QStringLiteral("present") : QStringLiteral("gone");
                case RateColumn:
                    return port ? port->rate : QString();
                case HealthColumn:
                    return health_text(worst, findings);
            }
            return {};
        case Qt::DecorationRole:
            if (index.column() == HealthColumn) {
                return worst ? severity_color(*worst) : QColor(0x2e, 0x7d, 0x32);
            }
            return {};
        case Qt::ToolTipRole:
            if (index.column() == HealthColumn && worst) {
                return QStringLiteral("%1 active finding(s), worst %2")
                    .arg(findings)
                    .arg(qs(to_string(*worst)));
            }
            return {};
        case PortRefRole:
            return port ? qs(port->ref.to_string()) : QString();
        case DeviceRole:
            return dev.name;
        case WorstSeverityRole:
            return worst ? static_cast<int>(*worst) : -1;
        default:
            return {};
    }
}

QVariant PortTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn:
            return QStringLiteral("Device / port");
        case StateColumn:
            return QStringLiteral("State");
        case RateColumn:
            return QStringLiteral("Rate");
        case HealthColumn:
            return QStringLiteral("Health");
    }
    return {};
}

}  // namespace rdmadiag::gui::models
