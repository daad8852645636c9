#pragma once
// One port's P_Key table with every view side by side (device, sma, sm, cache). A view's cell
// that disagrees with the device is tinted; the table's last change is highlighted by kind
// (added, removed, moved, membership). Headers carry each view's generation and age.

#include <array>
#include <optional>
#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"
#include "gui/models/pkey_table_diff.hpp"

namespace rdmadiag::gui {

class PKeyTableModel final : public KeyedTableModel {
public:
    enum Column {
        IndexColumn,
        DeviceColumn,
        SmaColumn,
        SmColumn,
        CacheColumn,
        ChangeColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        RawKeyRole,      // the raw value (int), or nothing for an empty or missing slot
        DiffersRole,     // true where this view disagrees with the device view
        ChangeKindRole,  // "added", "removed", "moved", "membership" on the last change's rows
    };

    using KeyedTableModel::KeyedTableModel;

    // `port` may be null (nothing selected). `last_change` is the table's last change, if known.
    void set_port(const PortSnapshot* port, const PKeyTableChange* last_change, TimePoint now);
    void set_show_empty(bool show);

    std::optional<PortRef> port() const { return port_; }
    // One line on the cache: coherent, or stale and since when.
    QString cache_summary() const;
    bool cache_differs() const { return cache_differs_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Cell {
        std::optional<uint16_t> raw;  // unset: the view has no such index, or it is unreadable
        bool unreadable = false;
    };
    struct Row {
        uint16_t index = 0;
        std::array<Cell, 4> views;  // in PKeyView order
        std::optional<PKeyIndexChange> change;
    };
    struct ViewHeader {
        bool present = false;
        uint64_t generation = 0;
        TimePoint changed;
        std::string source;
    };

    void rebuild();

    std::optional<PortRef> port_;
    std::optional<PortSnapshot> data_;
    std::optional<PKeyTableChange> change_;
    TimePoint now_{};
    bool show_empty_ = false;
    bool cache_differs_ = false;
    std::array<ViewHeader, 4> headers_{};
    std::vector<Row> rows_;
};

}  // namespace rdmadiag::gui
