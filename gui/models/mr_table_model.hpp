#pragma once
// Memory regions and their health. Stuck MRs, and MRs an active mr.needs_dereg finding names,
// are flagged "needs deregistration" and listed first. The advice is the engine's, carried by
// each MrRecord, so the table says exactly what `rdmadiag mrs` and the API say.

#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"
#include "gui/models/node_names.hpp"

namespace rdmadiag::gui::models {

class MrTableModel final : public KeyedTableModel {
public:
    enum Column {
        FlagColumn,
        DeviceColumn,
        MrColumn,
        KeyColumn,
        OwnerColumn,
        TransportColumn,
        StateColumn,
        InStateColumn,
        LastOpColumn,
        AdviceColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        StateRole,       // the state's stable name, "stuck"
        NeedsDeregRole,  // bool
    };

    struct Row {
        MrRecord mr;
        bool needs_dereg = false;
        std::optional<Severity> severity;
    };

    // `names` (may be null: keys are shown) says what a person calls each device.
    explicit MrTableModel(const NodeNames* names = nullptr, QObject* parent = nullptr)
        : KeyedTableModel(parent), names_(names) {}

    void set_snapshot(const Snapshot& snapshot);
    const Row* row_at(int row) const;
    QString device_text(const std::string& device) const;  // the node's name, else the key

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const NodeNames* names_;
    std::vector<Row> rows_;
    TimePoint now_{};
};

}  // namespace rdmadiag::gui::models
