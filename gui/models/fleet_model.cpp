#include "gui/models/fleet_model.hpp"

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

namespace {

bool same_shape(const FleetState& a, const FleetState& b) {
    if (a.hosts.size() != b.hosts.size()) return false;
    for (size_t i = 0; i < a.hosts.size(); ++i) {
        const auto& x = a.hosts[i];
        const auto& y = b.hosts[i];
        if (x.instance != y.instance || x.findings.size() != y.findings.size()) return false;
        for (size_t f = 0; f < x.findings.size(); ++f) {
            if (x.findings[f].rule != y.findings[f].rule ||
                x.findings[f].device != y.findings[f].device ||
                x.findings[f].port != y.findings[f].port) {
                return false;
            }
        }
    }
    return true;
}

QString subject_text(const FleetFinding& f) {
    if (f.device.empty()) return QStringLiteral("-");
    return f.port ? QStringLiteral("%1:%2").arg(qs(f.device)).arg(*f.port) : qs(f.device);
}

}  // namespace

QString fleet_health_text(const FleetHost& host) {
    if (host.up && !*host.up) return QStringLiteral("down");
    int up = 0;
    for (const auto& s : host.sources) up += s.up ? 1 : 0;
    const int n = static_cast<int>(host.sources.size());
    if (n > 0 && up < n) return QStringLiteral("%1/%2 sources up").arg(up).arg(n);
    return host.up ? QStringLiteral("up") : QStringLiteral("up (no scrape status)");
}

std::optional<Severity> worst_severity(const FleetHost& host) {
    std::optional<Severity> worst;
    for (const auto& f : host.findings) {
        if (!worst || static_cast<int>(f.severity) > static_cast<int>(*worst)) worst = f.severity;
    }
    return worst;
}

int active_findings(const FleetHost& host) {
    int n = 0;
    for (const auto& f : host.findings) n += f.count;
    return n;
}

void FleetModel::set_state(FleetState state) {
    if (!same_shape(state_, state)) {
        beginResetModel();
        state_ = std::move(state);
        endResetModel();
        return;
    }
    state_ = std::move(state);
    for (int h = 0; h < static_cast<int>(state_.hosts.size()); ++h) {
        const QModelIndex host = index(h, 0);
        Q_EMIT dataChanged(host, index(h, ColumnCount - 1));
        const int n = rowCount(host);
        if (n > 0) Q_EMIT dataChanged(index(0, 0, host), index(n - 1, ColumnCount - 1, host));
    }
}

const FleetHost* FleetModel::host_at(const QModelIndex& index) const {
    if (!index.isValid()) return nullptr;
    const size_t h = index.internalId() == 0 ? static_cast<size_t>(index.row())
                                             : static_cast<size_t>(index.internalId() - 1);
    return h < state_.hosts.size() ? &state_.hosts[h] : nullptr;
}

QModelIndex FleetModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, quintptr{0});
    return createIndex(row, column, static_cast<quintptr>(parent.row() + 1));
}

QModelIndex FleetModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0) return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int FleetModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return static_cast<int>(state_.hosts.size());
    if (parent.internalId() != 0 || parent.column() != 0) return 0;
    return static_cast<int>(state_.hosts[static_cast<size_t>(parent.row())].findings.size());
}

int FleetModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant FleetModel::data(const QModelIndex& index, int role) const {
    const FleetHost* host = host_at(index);
    if (!host) return {};
    const FleetFinding* f =
        index.internalId() == 0 ? nullptr : &host->findings[static_cast<size_t>(index.row())];
    const std::optional<Severity> worst =
        f ? std::optional<Severity>(f->severity) : worst_severity(*host);
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case HostColumn:
                    return f ? qs(f->rule) : qs(host->instance);
                case HealthColumn:
                    return f ? qs(to_string(f->severity)) : fleet_health_text(*host);
                case FindingsColumn:
                    return f ? subject_text(*f) : QString::number(active_findings(*host));
                case WorstColumn:
                    if (f) return f->count;
                    return worst ? qs(to_string(*worst)) : QStringLiteral("ok");
            }
            return {};
        case Qt::DecorationRole:
            if (index.column() == WorstColumn && !f) {
                return worst ? severity_color(*worst) : QColor(0x2e, 0x7d, 0x32);
            }
            return {};
        case Qt::ForegroundRole:
            if (!f && index.column() == HealthColumn &&
                fleet_health_text(*host) != QLatin1String("up")) {
                return QColor(0xc6, 0x28, 0x28);
            }
            return {};
        case Qt::ToolTipRole:
            if (!f) {
                return QStringLiteral("%1 (job %2): double-click to open its daemon")
                    .arg(qs(host->instance), qs(host->job));
            }
            return {};
        case InstanceRole:
            return qs(host->instance);
        case WorstSeverityRole:
            return worst ? static_cast<int>(*worst) : -1;
        default:
            return {};
    }
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case HostColumn:
            return QStringLiteral("Host / rule");
        case HealthColumn:
            return QStringLiteral("Health / severity");
        case FindingsColumn:
            return QStringLiteral("Findings / subject");
        case WorstColumn:
            return QStringLiteral("Worst / count");
    }
    return {};
}

}  // namespace rdmadiag::gui::models
