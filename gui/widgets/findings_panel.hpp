#pragma once
// The first thing on screen: active findings, stale caches and MRs needing deregistration on
// top, with the selected finding's evidence and advice spelled out below the table.

#include <QWidget>

class QLabel;

namespace rdmadiag::gui::models {
class FindingsModel;
}  // namespace rdmadiag::gui::models

namespace rdmadiag::gui::widgets {

class FilteredTable;

class FindingsPanel final : public QWidget {
    Q_OBJECT
public:
    FindingsPanel(models::FindingsModel* model, QWidget* parent = nullptr);

    FilteredTable* table() const { return table_; }
    // Called after the model was updated: headline counts and the detail of the current row.
    void refresh();

Q_SIGNALS:
    // The user picked a finding about a port (to show that port's tables).
    // `rule`: the finding's; a consumer.* finding is shown with the port's consumers.
    void portActivated(const QString& device, int port, const QString& rule);
    // The user picked a finding about a partition (a base P_Key).
    void partitionActivated(int pkey);

private:
    void show_detail();

    models::FindingsModel* model_;
    QLabel* headline_;
    FilteredTable* table_;
    QLabel* detail_;
};

}  // namespace rdmadiag::gui::widgets
