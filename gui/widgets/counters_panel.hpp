#pragma once
// The selected port's counters in a table, and the chosen ones charted over time.

#include <QWidget>
#include <set>
#include <string>

namespace rdmadiag::gui::models {
class DashboardModels;
}  // namespace rdmadiag::gui::models

namespace rdmadiag::gui::widgets {

class CounterChart;
class FilteredTable;

class CountersPanel final : public QWidget {
    Q_OBJECT
public:
    CountersPanel(models::DashboardModels& models, QWidget* parent = nullptr);

    void refresh();  // after the models were updated
    FilteredTable* table() const { return table_; }
    CounterChart* chart() const { return chart_; }

private:
    std::vector<std::string> charted() const;

    models::DashboardModels& models_;
    FilteredTable* table_;
    CounterChart* chart_;
};

}  // namespace rdmadiag::gui::widgets
