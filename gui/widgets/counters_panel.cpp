#include "gui/widgets/counters_panel.hpp"

#include <QHeaderView>
#include <QSplitter>
#include <QVBoxLayout>

#include "collector/model/counter.hpp"
#include "gui/models/dashboard_models.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/counter_chart.hpp"
#include "gui/widgets/filtered_table.hpp"

namespace rdmadiag::gui::widgets {

CountersPanel::CountersPanel(models::DashboardModels& models, QWidget* parent)
    : QWidget(parent),
      models_(models),
      table_(new FilteredTable(&models.counters, models::CounterTableModel::SortRole,
                               tr("Filter counters (Ctrl+F); select rows to chart them"), this)),
      chart_(new CounterChart(this)) {
    table_->view()->setObjectName(QStringLiteral("counterView"));
    table_->view()->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->view()->horizontalHeader()->setStretchLastSection(true);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    split->addWidget(chart_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);
    connect(table_->view()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CountersPanel::refresh);
}

std::vector<std::string> CountersPanel::charted() const {
    std::vector<std::string> names;
    for (const QModelIndex& i : table_->view()->selectionModel()->selectedRows()) {
        names.push_back(
            i.data(models::CounterTableModel::CounterNameRole).toString().toStdString());
    }
    if (!names.empty()) return names;
    // Nothing chosen: the P_Key violation counters, the ones this tool is about.
    for (int r = 0; r < models_.counters.rowCount(); ++r) {
        const CounterState* c = models_.counters.counter_at(r);
        if (c && is_pkey_violation_counter(c->name)) names.push_back(c->name);
    }
    if (names.empty() && models_.counters.rowCount() > 0) {
        names.push_back(models_.counters.counter_at(0)->name);
    }
    return names;
}

void CountersPanel::refresh() {
    const auto port = models_.current_port();
    if (!port) {
        chart_->clear_chart(tr("Select a port"));
        return;
    }
    chart_->show_counters(models_.history, *port, models_.names.port(*port), charted(),
                          models_.pkey_changes.change_times(*port));
}

}  // namespace rdmadiag::gui::widgets
