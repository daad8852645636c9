#pragma once
// Partitions: every P_Key with its member ports per view (intent, sm, sma, device, cache) on the
// left, filterable by P_Key or name; on the right the chosen partition's member ports, those that
// differ from the intent first and highlighted, and the partition's active findings. Activating a
// member port (Enter, double-click) asks for it in the fabric view.

#include <QWidget>

class QLabel;
class QTableView;

namespace rdmadiag::gui::models {
class DashboardModels;
class PartitionFilterProxy;
}  // namespace rdmadiag::gui::models

namespace rdmadiag::gui::widgets {

class CopyableTableView;
class FilteredTable;

class PartitionsPanel final : public QWidget {
    Q_OBJECT
public:
    PartitionsPanel(models::DashboardModels& models, QWidget* parent = nullptr);

    void refresh();  // after the models were updated
    // As tall as the other tabs ask to be: the window's split between the findings and the tabs
    // is made from the tabs' size hints, and this tab must not take room from the findings.
    QSize sizeHint() const override;
    // Chooses a partition (a base P_Key) as a click on its row would.
    void show_partition(uint16_t pkey);

    FilteredTable* list() const { return list_; }
    FilteredTable* members() const { return members_; }
    CopyableTableView* findings_view() const { return findings_; }
    QLabel* intent_label() const { return intent_; }
    QLabel* title_label() const { return title_; }
    models::PartitionFilterProxy* filter() const { return filter_; }

Q_SIGNALS:
    void partitionSelected();
    void portActivated(const QString& device, int port);

private:
    // The constructor's steps: the intent line and the partition list, the member ports of the
    // selected partition, the legend of their colours, the partition's findings, the layout, and
    // what follows the selections.
    void set_up_partition_list();
    void set_up_member_table();
    QLabel* build_legend();
    void set_up_finding_table();
    QWidget* build_partition_side(QLabel* legend);
    void lay_out(QWidget* right);
    void follow_selection();
    void show_intent();
    void show_title();
    void show_finding_detail();

    models::DashboardModels& models_;
    models::PartitionFilterProxy* filter_;
    QLabel* intent_;
    FilteredTable* list_;
    QLabel* title_;
    FilteredTable* members_;
    CopyableTableView* findings_;
    QLabel* finding_detail_;
    bool syncing_ = false;
};

}  // namespace rdmadiag::gui::widgets
