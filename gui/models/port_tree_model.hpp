#pragma once
// Devices and their ports as a two-level tree, each with a health badge: the worst severity of
// the active findings about it (a device's badge covers its ports).

#include <QAbstractItemModel>
#include <optional>
#include <vector>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::models {

class PortTreeModel final : public QAbstractItemModel {
public:
    enum Column { NameColumn, StateColumn, RateColumn, HealthColumn, ColumnCount };
    enum Role {
        PortRefRole = Qt::UserRole + 1,  // "mlx5_0:1" on ports, "" on devices
        DeviceRole,                      // device name on both levels
        WorstSeverityRole,               // int(Severity), or -1 when healthy
    };

    struct PortNode {
        PortRef ref;
        QString state;
        QString rate;
        bool present = true;
        std::optional<Severity> worst;
        int findings = 0;
    };
    struct DeviceNode {
        QString name;
        QString kind;  // "IB HCA", "RoCE", ...
        bool present = true;
        std::optional<Severity> worst;
        int findings = 0;
        std::vector<PortNode> ports;
    };

    using QAbstractItemModel::QAbstractItemModel;

    void set_snapshot(const Snapshot& snapshot);
    // The index of a port's row (column 0), or invalid.
    QModelIndex index_of(const PortRef& ref) const;
    std::optional<PortRef> port_at(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // Port items carry their device's row + 1 as internal id; device items carry 0.
    std::vector<DeviceNode> devices_;
};

}  // namespace rdmadiag::gui::models
