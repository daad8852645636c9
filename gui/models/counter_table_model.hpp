#pragma once
// One port's counters: raw reading, monotonic total, width, and whether it saturated, was reset
// or wrapped.

#include <optional>
#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"

namespace rdmadiag::gui::models {

class CounterTableModel final : public KeyedTableModel {
public:
    enum Column {
        NameColumn,
        KindColumn,
        WidthColumn,
        RawColumn,
        TotalColumn,
        NotesColumn,
        UpdatedColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, CounterNameRole };

    using KeyedTableModel::KeyedTableModel;

    void set_port(const PortSnapshot* port, TimePoint now);
    std::optional<PortRef> port() const { return port_; }
    const CounterState* counter_at(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::optional<PortRef> port_;
    std::vector<CounterState> rows_;
    TimePoint now_{};
};

}  // namespace rdmadiag::gui::models
