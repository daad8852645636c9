#pragma once
// Every partition, one row per P_Key: its name, its member ports per view (full/limited, as
// `rdmadiag partitions` counts them), how many member ports differ from the intent and the
// partition's active findings. A partition with differences is highlighted, and so is each view
// whose counts are not the intent's.

#include <map>
#include <optional>
#include <vector>

#include "collector/model/finding.hpp"
#include "gui/models/keyed_table_model.hpp"
#include "gui/models/partition_listing.hpp"

namespace rdmadiag::gui::models {

class PartitionListModel final : public KeyedTableModel {
public:
    enum Column {
        PKeyColumn,
        NameColumn,
        IntentColumn,  // then SmColumn .. CacheColumn, in MemberView order
        SmColumn,
        SmaColumn,
        DeviceColumn,
        CacheColumn,
        DiffersColumn,
        FindingsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,
        PKeyRole,               // the base P_Key (int), in every column
        DifferencesRole,        // member ports that differ (int); -1 where not judged
        DiffersFromIntentRole,  // on a view's column: its counts are not the intent's
        FindingsRole,           // the partition's active findings (int)
    };

    using KeyedTableModel::KeyedTableModel;

    // Every partition (a listing without members_of). Rows keep their place when the P_Keys are
    // the same, so a selection survives an update.
    void set_listing(const PartitionListing& listing);
    // One partition's row, fresher than the list's (from a members answer).
    void update_row(const PartitionRow& row);
    // The active findings, of which those about a partition are counted on its row.
    void set_findings(const std::vector<Finding>& findings);
    void clear();

    const PartitionRow* row_at(int row) const;
    int row_of(uint16_t pkey) const;  // -1 when absent
    bool has_intent() const { return intent_; }
    bool empty() const { return rows_.empty(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct FindingCount {
        int count = 0;
        Severity worst = Severity::info;
    };
    std::optional<MemberView> view_of(int column) const;
    bool differs_from_intent(const PartitionRow& row, MemberView v) const;

    std::vector<PartitionRow> rows_;
    std::map<uint16_t, FindingCount> findings_;
    bool intent_ = false;
};

// "3/1": full and limited members (a port holding both counted in each); "-" for none.
QString member_counts_text(const MemberCounts& c);

}  // namespace rdmadiag::gui::models
