#pragma once
// Filters the MR table by state ("stuck", "unknown", ..., or every flagged MR) on top of the
// usual text filter, and sorts by each column's SortRole.

#include <QSortFilterProxyModel>

namespace rdmadiag::gui::models {

class MrFilterProxy final : public QSortFilterProxyModel {
public:
    static constexpr const char* kAll = "";
    static constexpr const char* kFlagged = "flagged";

    explicit MrFilterProxy(QObject* parent = nullptr);

    // A state's stable name, kFlagged (needs deregistration or unknown) or kAll.
    void set_state_filter(const QString& state);
    QString state_filter() const { return state_; }

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

private:
    QString state_;
};

}  // namespace rdmadiag::gui::models
