#pragma once
// Active findings, most urgent first: stale P_Key caches and MRs needing deregistration on top,
// then by severity, then oldest first.

#include <vector>

#include "collector/model/finding.hpp"
#include "gui/models/keyed_table_model.hpp"
#include "gui/models/node_names.hpp"

namespace rdmadiag::gui::models {

class FindingsModel final : public KeyedTableModel {
public:
    enum Column {
        SeverityColumn,
        RuleColumn,
        SubjectColumn,
        SinceColumn,
        AdviceColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1,  // what the column sorts by (ranks, times as numbers)
        RuleRole,                     // the rule id, in every column
        FindingIdRole,                // Finding::id()
        EvidenceRole,
    };

    // `names` (may be null: keys are shown) says what a person calls each device.
    explicit FindingsModel(const NodeNames* names = nullptr, QObject* parent = nullptr)
        : KeyedTableModel(parent), names_(names) {}

    void set_findings(std::vector<Finding> findings, TimePoint now);
    const Finding* finding_at(int row) const;
    // "node0421 HCA-1 port 1 index 5 pkey 0x8010" (the key form without names).
    QString subject_text(const Finding& f) const;
    const std::vector<Finding>& findings() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const NodeNames* names_;
    std::vector<Finding> rows_;
    TimePoint now_{};
};

// The order the panel shows findings in by default.
void sort_findings_for_display(std::vector<Finding>& findings);

}  // namespace rdmadiag::gui::models
