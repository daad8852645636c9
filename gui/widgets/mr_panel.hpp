#pragma once
// Memory regions, filterable by state; stuck ones flagged "needs deregistration" with the
// advice for their transport below the table. Under it, who holds the MRs: the top processes
// (RDMA netlink) with leak and owner-gone flags, each device against max_mr, and what the kernel
// does with flushed xprtrdma MRs.

#include <QWidget>

class QComboBox;
class QLabel;
class QTableView;

namespace rdmadiag::gui::models {
class MrFilterProxy;
class MrProcessModel;
class MrTableModel;
}  // namespace rdmadiag::gui::models

namespace rdmadiag::gui::widgets {

class FilteredTable;

class MrPanel final : public QWidget {
    Q_OBJECT
public:
    MrPanel(models::MrTableModel* model, models::MrProcessModel* processes,
            QWidget* parent = nullptr);

    void refresh();
    FilteredTable* table() const { return table_; }
    QComboBox* state_box() const { return state_; }
    models::MrFilterProxy* proxy() const { return proxy_; }
    QTableView* process_view() const { return process_view_; }
    QLabel* usage_summary() const { return usage_; }

private:
    void show_advice();

    models::MrTableModel* model_;
    models::MrFilterProxy* proxy_;
    FilteredTable* table_;
    QComboBox* state_;
    QLabel* advice_;
    models::MrProcessModel* processes_;
    QTableView* process_view_;
    QLabel* usage_;
};

}  // namespace rdmadiag::gui::widgets
