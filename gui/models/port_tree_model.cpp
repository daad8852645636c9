#include "gui/models/port_tree_model.hpp"

#include <algorithm>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

void raise(std::optional<Severity>& worst, Severity s) {
    if (!worst || static_cast<int>(s) > static_cast<int>(*worst)) worst = s;
}

QString transport_text(Transport t) {
    switch (t) {
        case Transport::ib:
            return QStringLiteral("InfiniBand");
        case Transport::roce:
            return QStringLiteral("RoCE");
        case Transport::iwarp:
            return QStringLiteral("iWARP");
        case Transport::unknown:
            break;
    }
    return {};
}

PortTreeModel::Group group_of(const DeviceInfo& info) {
    const std::string type = info.node_type.value_or("CA");
    if (type == "switch") return PortTreeModel::SwitchGroup;
    if (type == "router") return PortTreeModel::RouterGroup;
    if (type == "CA" || type == "RNIC") return PortTreeModel::HcaGroup;
    return PortTreeModel::OtherGroup;
}

QString group_title(PortTreeModel::Group g) {
    switch (g) {
        case PortTreeModel::SwitchGroup:
            return QStringLiteral("Switches");
        case PortTreeModel::HcaGroup:
            return QStringLiteral("HCAs");
        case PortTreeModel::RouterGroup:
            return QStringLiteral("Routers");
        default:
            return QStringLiteral("Other");
    }
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

bool same_shape(const PortTreeModel::DeviceNode& a, const PortTreeModel::DeviceNode& b) {
    if (a.key != b.key || a.name != b.name || a.group != b.group ||
        a.ports.size() != b.ports.size()) {
        return false;
    }
    for (size_t i = 0; i < a.ports.size(); ++i) {
        if (a.ports[i].ref != b.ports[i].ref) return false;
    }
    return true;
}

// The node keeps the health it had: findings are counted separately (set_findings).
void keep_health(PortTreeModel::DeviceNode& next, const PortTreeModel::DeviceNode& old) {
    next.worst = old.worst;
    next.findings = old.findings;
    for (size_t i = 0; i < next.ports.size() && i < old.ports.size(); ++i) {
        next.ports[i].worst = old.ports[i].worst;
        next.ports[i].findings = old.ports[i].findings;
    }
}

}  // namespace

PortTreeModel::DeviceNode make_device_node(const DeviceSnapshot& d) {
    PortTreeModel::DeviceNode dn;
    dn.key = d.info.device;
    dn.name =
        d.info.node_desc && !d.info.node_desc->empty() ? qs(*d.info.node_desc) : qs(d.info.device);
    if (d.info.node_guid) {
        dn.guid = QStringLiteral("0x%1").arg(*d.info.node_guid, 16, 16, QLatin1Char('0'));
    }
    dn.kind = transport_text(d.info.transport);
    dn.present = d.present;
    dn.group = group_of(d.info);
    dn.lid = d.info.lid;
    // A switch answers with one LID on every port (port 0's); show it on the node.
    if (!dn.lid && dn.group == PortTreeModel::SwitchGroup && !d.ports.empty()) {
        dn.lid = d.ports.front().info.lid;
    }
    dn.ports.reserve(d.ports.size());
    for (const auto& p : d.ports) {
        PortTreeModel::PortNode pn;
        pn.ref = p.ref;
        pn.state = port_state_text(p);
        pn.rate = p.info.rate ? qs(*p.info.rate) : QString();
        pn.lid = p.info.lid;
        dn.ports.push_back(std::move(pn));
    }
    return dn;
}

void PortTreeModel::rebuild(const Snapshot& snapshot) {
    std::unordered_map<std::string, DeviceNode> old;
    for (auto& d : devices_) old.emplace(d.key, std::move(d));
    devices_.clear();
    slot_of_.clear();
    port_count_ = 0;
    std::array<std::vector<size_t>, GroupCount> members;
    for (const auto& d : snapshot.devices) {
        DeviceNode dn = make_device_node(d);
        if (auto it = old.find(dn.key); it != old.end() && same_shape(dn, it->second)) {
            keep_health(dn, it->second);
        }
        slot_of_[dn.key] = devices_.size();
        members[dn.group].push_back(devices_.size());
        port_count_ += dn.ports.size();
        devices_.push_back(std::move(dn));
    }
    groups_.clear();
    for (int g = 0; g < GroupCount; ++g) {
        auto& slots = members[static_cast<size_t>(g)];
        if (slots.empty()) continue;
        // Sorted once here, by name, never per poll: a change keeps a node where it is.
        std::stable_sort(slots.begin(), slots.end(), [this](size_t a, size_t b) {
            return QString::compare(devices_[a].name, devices_[b].name, Qt::CaseInsensitive) < 0;
        });
        for (size_t r = 0; r < slots.size(); ++r) devices_[slots[r]].row = static_cast<int>(r);
        groups_.push_back(GroupRow{static_cast<Group>(g), std::move(slots), {}, 0});
    }
}

void PortTreeModel::set_snapshot(const Snapshot& snapshot) {
    bool same = snapshot.devices.size() == devices_.size();
    for (size_t i = 0; same && i < devices_.size(); ++i) {
        same = same_shape(devices_[i], make_device_node(snapshot.devices[i]));
    }
    if (!same) {
        beginResetModel();
        rebuild(snapshot);
        endResetModel();
        return;
    }
    std::vector<std::string> all;
    all.reserve(snapshot.devices.size());
    for (const auto& d : snapshot.devices) all.push_back(d.info.device);
    update_devices(snapshot, all);
}

void PortTreeModel::update_devices(const Snapshot& snapshot,
                                   const std::vector<std::string>& devices) {
    if (snapshot.devices.size() != devices_.size()) {
        set_snapshot(snapshot);  // nodes came or went besides these
        return;
    }
    std::vector<std::pair<size_t, DeviceNode>> next;
    for (const auto& name : devices) {
        const DeviceSnapshot* d = snapshot.find_device(name);
        const auto it = slot_of_.find(name);
        if (!d || it == slot_of_.end()) {
            set_snapshot(snapshot);  // a node came or went
            return;
        }
        DeviceNode dn = make_device_node(*d);
        const DeviceNode& old = devices_[it->second];
        if (!same_shape(dn, old)) {
            beginResetModel();
            rebuild(snapshot);
            endResetModel();
            return;
        }
        dn.row = old.row;
        keep_health(dn, old);
        next.emplace_back(it->second, std::move(dn));
    }
    for (auto& [slot, dn] : next) {
        devices_[slot] = std::move(dn);
        emit_device_changed(slot);
    }
}

void PortTreeModel::emit_device_changed(size_t slot) {
    const DeviceNode& d = devices_[slot];
    const QModelIndex dev = createIndex(d.row, 0, static_cast<quintptr>(1 + d.group));
    Q_EMIT dataChanged(dev, dev.siblingAtColumn(ColumnCount - 1));
    if (!d.ports.empty()) {
        Q_EMIT dataChanged(
            createIndex(0, 0, kPortBase + slot),
            createIndex(static_cast<int>(d.ports.size()) - 1, ColumnCount - 1, kPortBase + slot));
    }
}

void PortTreeModel::set_findings(const std::vector<Finding>& findings) {
    std::unordered_set<std::string> now;
    for (const auto& f : findings) {
        if (slot_of_.contains(f.subject.device)) now.insert(f.subject.device);
    }
    std::unordered_set<std::string> affected = flagged_;
    affected.insert(now.begin(), now.end());
    std::unordered_map<size_t, DeviceNode> before;
    for (const auto& name : affected) {
        const size_t slot = slot_of_.at(name);
        DeviceNode& d = devices_[slot];
        before.emplace(slot, d);
        d.worst.reset();
        d.findings = 0;
        for (auto& p : d.ports) {
            p.worst.reset();
            p.findings = 0;
        }
    }
    for (const auto& f : findings) {
        const auto it = slot_of_.find(f.subject.device);
        if (it == slot_of_.end()) continue;
        DeviceNode& d = devices_[it->second];
        raise(d.worst, f.severity);
        ++d.findings;
        if (!f.subject.port) continue;
        for (auto& p : d.ports) {
            if (p.ref.port != *f.subject.port) continue;
            raise(p.worst, f.severity);
            ++p.findings;
        }
    }
    for (const auto& [slot, old] : before) {
        const DeviceNode& d = devices_[slot];
        bool changed = d.worst != old.worst || d.findings != old.findings;
        for (size_t i = 0; !changed && i < d.ports.size(); ++i) {
            changed = d.ports[i].worst != old.ports[i].worst ||
                      d.ports[i].findings != old.ports[i].findings;
        }
        if (changed) emit_device_changed(slot);
    }
    for (int r = 0; r < static_cast<int>(groups_.size()); ++r) {
        GroupRow& g = groups_[static_cast<size_t>(r)];
        const auto old_worst = g.worst;
        const int old_findings = g.findings;
        g.worst.reset();
        g.findings = 0;
        for (const auto& name : now) {
            const DeviceNode& d = devices_[slot_of_.at(name)];
            if (d.group != g.group || !d.worst) continue;
            raise(g.worst, *d.worst);
            g.findings += d.findings;
        }
        if (g.worst != old_worst || g.findings != old_findings) {
            Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
        }
    }
    flagged_ = std::move(now);
}

int PortTreeModel::group_row(Group g) const {
    for (size_t r = 0; r < groups_.size(); ++r) {
        if (groups_[r].group == g) return static_cast<int>(r);
    }
    return -1;
}

QModelIndex PortTreeModel::index_of_device(std::string_view device) const {
    const auto it = slot_of_.find(std::string(device));
    if (it == slot_of_.end()) return {};
    const DeviceNode& d = devices_[it->second];
    return createIndex(d.row, 0, static_cast<quintptr>(1 + d.group));
}

QModelIndex PortTreeModel::index_of(const PortRef& ref) const {
    const auto it = slot_of_.find(ref.device);
    if (it == slot_of_.end()) return {};
    const auto& ports = devices_[it->second].ports;
    for (size_t p = 0; p < ports.size(); ++p) {
        if (ports[p].ref == ref) return createIndex(static_cast<int>(p), 0, kPortBase + it->second);
    }
    return {};
}

std::optional<PortRef> PortTreeModel::port_at(const QModelIndex& index) const {
    const PortNode* p = port_node_at(index);
    return p ? std::optional<PortRef>(p->ref) : std::nullopt;
}

const PortTreeModel::GroupRow* PortTreeModel::group_at(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() != 0) return nullptr;
    return &groups_[static_cast<size_t>(index.row())];
}

const PortTreeModel::DeviceNode* PortTreeModel::device_at(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == 0) return nullptr;
    if (index.internalId() >= kPortBase) return &devices_[index.internalId() - kPortBase];
    const int g = group_row(static_cast<Group>(index.internalId() - 1));
    return &devices_[groups_[static_cast<size_t>(g)].slots[static_cast<size_t>(index.row())]];
}

const PortTreeModel::PortNode* PortTreeModel::port_node_at(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() < kPortBase) return nullptr;
    return &devices_[index.internalId() - kPortBase].ports[static_cast<size_t>(index.row())];
}

QModelIndex PortTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, quintptr{0});
    if (parent.internalId() == 0) {
        return createIndex(
            row, column,
            static_cast<quintptr>(1 + groups_[static_cast<size_t>(parent.row())].group));
    }
    const DeviceNode* d = device_at(parent);
    return createIndex(row, column, kPortBase + static_cast<quintptr>(d - devices_.data()));
}

QModelIndex PortTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0) return {};
    if (child.internalId() < kPortBase) {
        return createIndex(group_row(static_cast<Group>(child.internalId() - 1)), 0, quintptr{0});
    }
    const DeviceNode& d = devices_[child.internalId() - kPortBase];
    return createIndex(d.row, 0, static_cast<quintptr>(1 + d.group));
}

int PortTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(groups_.size());
    if (parent.column() != 0) return 0;
    if (const GroupRow* g = group_at(parent)) return static_cast<int>(g->slots.size());
    if (parent.internalId() >= kPortBase) return 0;
    return static_cast<int>(device_at(parent)->ports.size());
}

int PortTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant PortTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const GroupRow* group = group_at(index);
    const DeviceNode* dev = device_at(index);
    const PortNode* port = port_node_at(index);
    std::optional<Severity> worst;
    int findings = 0;
    if (group) {
        worst = group->worst;
        findings = group->findings;
    } else if (port) {
        worst = port->worst;
        findings = port->findings;
    } else {
        worst = dev->worst;
        findings = dev->findings;
    }
    // -1: the row has no LID (a group, or a port the sweep has not read).
    qint64 lid = -1;
    if (port && port->lid) {
        lid = *port->lid;
    } else if (!port && dev && dev->lid) {
        lid = *dev->lid;
    }
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case NameColumn:
                    if (group) {
                        return QStringLiteral("%1 (%2)")
                            .arg(group_title(group->group))
                            .arg(group->slots.size());
                    }
                    if (port) return QStringLiteral("port %1").arg(port->ref.port);
                    return dev->name;
                case KeyColumn:
                    return dev && !port ? qs(dev->key) : QString();
                case LidColumn:
                    return lid >= 0 ? QString::number(lid) : QString();
                case StateColumn:
                    if (port) return port->state;
                    if (dev)
                        return dev->present ? QStringLiteral("present") : QStringLiteral("gone");
                    return {};
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
            if (dev) {
                QString tip = port ? QStringLiteral("%1 port %2\n%3:%2")
                                         .arg(dev->name)
                                         .arg(port->ref.port)
                                         .arg(qs(dev->key))
                                   : QStringLiteral("%1\n%2").arg(dev->name, qs(dev->key));
                if (!port && !dev->guid.isEmpty()) tip += QStringLiteral("\nNodeGUID ") + dev->guid;
                if (!port && !dev->kind.isEmpty()) tip += QStringLiteral("\n") + dev->kind;
                if (lid >= 0) tip += QStringLiteral("\nLID %1").arg(lid);
                return tip;
            }
            return {};
        case PortRefRole:
            return port ? qs(port->ref.to_string()) : QString();
        case DeviceRole:
            return dev ? qs(dev->key) : QString();
        case WorstSeverityRole:
            return worst ? static_cast<int>(*worst) : -1;
        case SearchNameRole:
            return dev && !port ? dev->name.toLower() : QString();
        case SearchKeyRole:
            return dev && !port ? (qs(dev->key) + QLatin1Char('\n') + dev->guid).toLower()
                                : QString();
        case LidRole:
            return lid >= 0 ? QVariant(static_cast<int>(lid)) : QVariant();
        case LevelRole:
            return group ? 0 : port ? 2 : 1;
        default:
            return {};
    }
}

QVariant PortTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case NameColumn:
            return QStringLiteral("Node / port");
        case KeyColumn:
            return QStringLiteral("Device (key)");
        case LidColumn:
            return QStringLiteral("LID");
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
