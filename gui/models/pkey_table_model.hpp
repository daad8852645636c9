#pragma once
// One port's P_Key table with every view side by side (device, sma, sm, cache). A view's cell
// that disagrees with the device is tinted; the table's last change, as the engine diffed it
// (PortPKeyState::last_diff), is highlighted by kind (added, removed, moved, membership changed).
// Headers carry each view's generation and age; the cache line says the engine's judgement.

#include <array>
#include <optional>
#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"

namespace rdmadiag::gui::models {

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
        ChangeKindRole,  // the last change's kind on its rows: "added", "moved", ... (engine names)
    };

    using KeyedTableModel::KeyedTableModel;

    // `port` may be null (nothing selected).
    void set_port(const PortSnapshot* port, TimePoint now);
    void set_show_empty(bool show);

    std::optional<PortRef> port() const { return port_; }
    // One line on the cache: the engine's judgement, its note, and since when it is stale.
    QString cache_summary() const;
    // The engine's judgement of the port's cache (unknown when no port is selected).
    CacheJudgement cache_judgement() const;

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
        std::optional<PKeyEntryChange> change;
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
    TimePoint now_{};
    bool show_empty_ = false;
    std::array<ViewHeader, 4> headers_{};
    std::vector<Row> rows_;
};

}  // namespace rdmadiag::gui::models
