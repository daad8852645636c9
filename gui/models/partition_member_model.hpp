#pragma once
// The member ports of one partition: how each holds the P_Key in every view (intent, sm, sma,
// device, cache) and how it differs from the intent. Ports that differ come first and are
// highlighted by kind (missing, unexpected, mismatch); the two cells compared, the intent's and
// the held view's (sma where a subnet sweep read it, else device), are marked.

#include <optional>
#include <vector>

#include "gui/models/keyed_table_model.hpp"
#include "gui/models/node_names.hpp"
#include "gui/models/partition_listing.hpp"

namespace rdmadiag::gui::models {

class PartitionMemberModel final : public KeyedTableModel {
public:
    enum Column {
        PortColumn,
        IntentColumn,  // then SmColumn .. CacheColumn, in MemberView order
        SmColumn,
        SmaColumn,
        DeviceColumn,
        CacheColumn,
        DifferenceColumn,
        GuidColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        DeviceRole,      // the port's device (key), in every column
        PortNumberRole,  // its port number (int)
        DifferenceRole,  // "missing", "unexpected", "mismatch" or "none", in every column
        ComparedRole,    // on a view's column: this cell is one the intent was compared with
    };

    // `names` (may be null) says what a person calls each node that has no NodeDescription here.
    explicit PartitionMemberModel(const NodeNames* names = nullptr, QObject* parent = nullptr)
        : KeyedTableModel(parent), names_(names) {}

    // The members of partition `pkey`; the same ports in the same order only change data.
    void set_members(uint16_t pkey, std::vector<PartitionMemberRow> members);
    void clear();

    std::optional<uint16_t> pkey() const { return pkey_; }
    const PartitionMemberRow* row_at(int row) const;
    int differing() const { return differing_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString port_text(const PartitionMemberRow& m) const;

    const NodeNames* names_;
    std::optional<uint16_t> pkey_;
    std::vector<PartitionMemberRow> rows_;
    int differing_ = 0;
};

// The light row tint and the stronger cell tint of a difference; invalid for none.
QColor difference_background(MemberDifference d);
QColor difference_cell(MemberDifference d);

}  // namespace rdmadiag::gui::models
