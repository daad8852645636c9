#pragma once
// The fleet: one row per rdmadiag host with its health (scrape up, sources up) and its active
// findings, and the findings below it. Rows keep their place across polls while the set of hosts
// and findings stays the same, so a selection survives a refresh.

#include <QAbstractItemModel>

#include "gui/models/fleet_state.hpp"

namespace rdmadiag::gui::models {

class FleetModel final : public QAbstractItemModel {
public:
    enum Column {
        HostColumn,      // instance; on finding rows the rule
        HealthColumn,    // "up", "down", "2/3 sources up"; on finding rows the severity
        FindingsColumn,  // active findings; on finding rows the subject
        WorstColumn,     // worst severity; on finding rows the count
        ColumnCount
    };
    enum Role {
        InstanceRole = Qt::UserRole + 1,  // the host's instance on both levels
        WorstSeverityRole,                // int(Severity), or -1
    };

    using QAbstractItemModel::QAbstractItemModel;

    void set_state(FleetState state);
    const FleetState& state() const { return state_; }
    // The host of a row (either level), or null.
    const FleetHost* host_at(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // Host rows carry internal id 0; finding rows their host's row + 1.
    FleetState state_;
};

// "2/3 sources up", "down", "up"; what the health column says of a host.
QString fleet_health_text(const FleetHost& host);
std::optional<Severity> worst_severity(const FleetHost& host);
int active_findings(const FleetHost& host);

}  // namespace rdmadiag::gui::models
