#pragma once
// One port's GIDs: the kernel's cache beside what the port holds (sma), what the SM holds (sm)
// and, on RoCE, the GIDs the netdev's addresses imply. Rows are the table's indexes; on RoCE an
// address whose GID the cache lacks is a row of its own, without an index. A cell where the cache
// disagrees with the port, or a row the netdev view contradicts, is tinted and says why.

#include <array>
#include <optional>
#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"

namespace rdmadiag::gui::models {

class GidTableModel final : public KeyedTableModel {
public:
    enum Column {
        IndexColumn,
        CacheColumn,
        TypeColumn,
        NetdevColumn,
        SmaColumn,
        SmColumn,
        StateColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        DiffersRole,  // true where the row or cell shows a disagreement
    };

    using KeyedTableModel::KeyedTableModel;

    // `port` may be null (nothing selected).
    void set_port(const PortSnapshot* port, TimePoint now);

    std::optional<PortRef> port() const { return port_; }
    // One line on the cache: its coherence, the engine's note and the port's GID events.
    QString coherence_summary() const;
    GidCoherence coherence() const;
    // Whether any row has something to show in `column` (the panel hides the others: an
    // InfiniBand port has no netdevs, a RoCE port no SMA).
    bool column_used(int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    enum class RowState : uint8_t { fine, differs_from_port, address_gone, missing_from_cache };
    struct Row {
        std::optional<uint16_t> index;  // unset: a netdev address the cache lacks
        std::optional<GidEntry> cache;
        std::optional<Gid> sma;
        std::optional<Gid> sm;
        std::string ndev;  // of the cache entry, or of the missing address
        std::optional<Gid> missing;
        RowState state = RowState::fine;
    };

    void rebuild();

    std::optional<PortRef> port_;
    std::optional<PortGidState> data_;
    TimePoint now_{};
    std::vector<Row> rows_;
};

}  // namespace rdmadiag::gui::models
