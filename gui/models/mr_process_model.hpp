#pragma once
// Who holds the MRs (RDMA netlink, collector/model/mr_usage.hpp): the top processes by MR count
// and one "other" row, with their registered bytes, growth over the leak window and the
// leak-suspected and owner-gone flags; flagged rows are tinted. The summary line says what each
// device holds against its max_mr and what the kernel does with flushed xprtrdma MRs.

#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"

namespace rdmadiag::gui::models {

class MrProcessModel final : public KeyedTableModel {
public:
    enum Column {
        PidColumn,
        ProcessColumn,
        MrsColumn,
        BytesColumn,
        GrowthColumn,
        DevicesColumn,
        FlagsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        FlaggedRole,  // bool: leak suspected or owner gone
    };

    using KeyedTableModel::KeyedTableModel;

    void set_snapshot(const Snapshot& snapshot);
    // "mlx5_0: 1,204 of 16,777,216 MRs (0.0%) · kernel: flushed xprtrdma MRs destroyed at
    // teardown"; empty when nothing is known.
    QString summary() const { return summary_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        MrProcessUsage usage;
        bool other = false;  // the folded rest; usage.comm holds the count of processes
    };
    std::vector<Row> rows_;
    QString summary_;
};

}  // namespace rdmadiag::gui::models
