#pragma once
// The fabric as a three-level tree: node groups (switches, HCAs, routers, other), their nodes
// and the nodes' ports. A node is named by its NodeDescription ("Leaf017", "node0421 HCA-1"); its
// key (device name or guid:0x...) has a column and the tooltip. Every row has a health badge: the
// worst severity of the active findings about it (a node's badge covers its ports, a group's its
// nodes).
//
// Built for a subnet of thousands of nodes: rows are plain vectors addressed through internal
// ids, so a view asks only for what it shows; children need no objects until they are looked at;
// a device that changed updates its own rows (dataChanged) and the tree is reset only when nodes
// or ports come or go.

#include <QAbstractItemModel>
#include <array>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::models {

class PortTreeModel final : public QAbstractItemModel {
public:
    enum Column {
        NameColumn,
        KeyColumn,
        LidColumn,
        StateColumn,
        RateColumn,
        HealthColumn,
        ColumnCount
    };
    enum Role {
        PortRefRole = Qt::UserRole + 1,  // "mlx5_0:1" on ports, "" elsewhere
        DeviceRole,                      // the device's key on nodes and ports, "" on groups
        WorstSeverityRole,               // int(Severity), or -1 when healthy
        SearchNameRole,                  // the node's name in lower case, for search
        SearchKeyRole,                   // its key and NodeGUID in lower case, for search
        LidRole,                         // the row's LID (int), or nothing
        LevelRole,                       // 0 group, 1 node, 2 port
    };
    enum Group { SwitchGroup, HcaGroup, RouterGroup, OtherGroup, GroupCount };

    struct PortNode {
        PortRef ref;
        QString state;
        QString rate;
        std::optional<uint32_t> lid;
        std::optional<Severity> worst;
        int findings = 0;
    };
    struct DeviceNode {
        std::string key;  // device name: guid:0x... or mlx5_0
        QString name;     // NodeDescription, else the key
        QString guid;     // "0x0002c90300100011", or empty
        QString kind;     // InfiniBand, RoCE, iWARP
        std::optional<uint32_t> lid;
        bool present = true;
        Group group = OtherGroup;
        int row = 0;  // within its group
        std::optional<Severity> worst;
        int findings = 0;
        std::vector<PortNode> ports;
    };

    using QAbstractItemModel::QAbstractItemModel;

    // Everything anew: the tree is reset when its shape changed, else rows update in place.
    void set_snapshot(const Snapshot& snapshot);
    // Only these devices changed (the change feed said so); their rows update in place. When one
    // of them is new or lost ports, the tree is rebuilt from `snapshot`.
    void update_devices(const Snapshot& snapshot, const std::vector<std::string>& devices);
    // Recomputes the health badges; rows whose badge changed are updated.
    void set_findings(const std::vector<Finding>& findings);

    // The index of a port's row (column 0), or invalid.
    QModelIndex index_of(const PortRef& ref) const;
    QModelIndex index_of_device(std::string_view device) const;
    std::optional<PortRef> port_at(const QModelIndex& index) const;
    size_t device_count() const { return devices_.size(); }
    size_t port_count() const { return port_count_; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    // Internal ids: 0 a group row; 1 + Group a node row of that group; kPortBase + slot a port
    // row of the node in devices_[slot].
    static constexpr quintptr kPortBase = GroupCount + 1;

    struct GroupRow {
        Group group;
        std::vector<size_t> slots;  // devices_ slots in display order
        std::optional<Severity> worst;
        int findings = 0;
    };

    void rebuild(const Snapshot& snapshot);
    void emit_device_changed(size_t slot);
    int group_row(Group g) const;  // visible row of a group, or -1
    const GroupRow* group_at(const QModelIndex& index) const;
    const DeviceNode* device_at(const QModelIndex& index) const;
    const PortNode* port_node_at(const QModelIndex& index) const;

    std::vector<DeviceNode> devices_;  // in snapshot order (by key)
    std::vector<GroupRow> groups_;     // non-empty groups, in Group order
    std::unordered_map<std::string, size_t> slot_of_;
    std::unordered_set<std::string> flagged_;  // devices with findings at the last count
    size_t port_count_ = 0;
};

// Builds one node's row from its snapshot (ports included, no health).
PortTreeModel::DeviceNode make_device_node(const DeviceSnapshot& device);

}  // namespace rdmadiag::gui::models
