#include "gui/widgets/mr_panel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QVBoxLayout>

#include "gui/models/display_text.hpp"
#include "gui/models/mr_filter_proxy.hpp"
#include "gui/models/mr_process_model.hpp"
#include "gui/models/mr_table_model.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/filtered_table.hpp"

namespace rdmadiag::gui::widgets {

MrPanel::MrPanel(models::MrTableModel* model, models::MrProcessModel* processes, QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new models::MrFilterProxy(this)),
      table_(new FilteredTable(model, models::MrTableModel::SortRole, tr("Filter MRs (Ctrl+F)"),
                               this, proxy_)),
      state_(new QComboBox(this)),
      advice_(new QLabel(this)),
      processes_(processes),
      process_view_(new CopyableTableView(this)),
      usage_(new QLabel(this)) {
    state_->addItem(tr("All states"), QString());
    state_->addItem(tr("Flagged (needs dereg / unknown)"),
                    QString::fromLatin1(models::MrFilterProxy::kFlagged));
    for (auto s : {MrState::valid, MrState::invalid, MrState::unknown, MrState::awaiting_teardown,
                   MrState::stuck, MrState::deregistered}) {
        state_->addItem(models::qs(to_string(s)), models::qs(to_string(s)));
    }
    state_->setObjectName(QStringLiteral("mrStateFilter"));
    connect(state_, &QComboBox::currentIndexChanged, this,
            [this](int) { proxy_->set_state_filter(state_->currentData().toString()); });
    auto* label = new QLabel(tr("&State:"), this);
    label->setBuddy(state_);
    table_->bar()->insertWidget(0, label);
    table_->bar()->insertWidget(1, state_);

    table_->view()->setObjectName(QStringLiteral("mrView"));
    table_->view()->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->view()->horizontalHeader()->setStretchLastSection(true);
    advice_->setWordWrap(true);
    advice_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(processes_);
    sorted->setSortRole(models::MrProcessModel::SortRole);
    process_view_->setModel(sorted);
    process_view_->setObjectName(QStringLiteral("mrProcessView"));
    process_view_->setSortingEnabled(true);
    process_view_->sortByColumn(models::MrProcessModel::MrsColumn, Qt::DescendingOrder);
    process_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    process_view_->horizontalHeader()->setStretchLastSection(true);
    usage_->setObjectName(QStringLiteral("mrUsageSummary"));
    usage_->setWordWrap(true);
    usage_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* top = new QWidget(this);
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(0, 0, 0, 0);
    top_layout->addWidget(table_, 1);
    top_layout->addWidget(advice_);
    auto* bottom = new QWidget(this);
    auto* bottom_layout = new QVBoxLayout(bottom);
    bottom_layout->setContentsMargins(0, 0, 0, 0);
    bottom_layout->addWidget(new QLabel(tr("<b>Who holds the MRs</b> (RDMA netlink)"), bottom));
    bottom_layout->addWidget(usage_);
    bottom_layout->addWidget(process_view_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split, 1);
    setFocusProxy(table_);
    connect(table_->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MrPanel::show_advice);
}

void MrPanel::refresh() {
    show_advice();
    const QString summary = processes_->summary();
    usage_->setText(summary.isEmpty() ? tr("No MR listings: RDMA netlink is not read here.")
                                      : summary);
}

void MrPanel::show_advice() {
    const QModelIndex current = table_->view()->currentIndex();
    const models::MrTableModel::Row* row =
        current.isValid() ? model_->row_at(proxy_->mapToSource(current).row()) : nullptr;
    if (!row) {
        for (int r = 0; r < model_->rowCount(); ++r) {
            if (model_->row_at(r)->needs_dereg) {
                row = model_->row_at(r);
                break;
            }
        }
    }
    if (!row || row->mr.advice.empty()) {
        advice_->setText(row ? tr("MR %1 on %2: %3, nothing to do.")
                                   .arg(row->mr.mr)
                                   .arg(model_->device_text(row->mr.device),
                                        models::qs(to_string(row->mr.state)))
                             : QString());
        advice_->setStyleSheet(QString());
        return;
    }
    advice_->setText(tr("MR %1 on %2 (%3)%4: %5")
                         .arg(row->mr.mr)
                         .arg(model_->device_text(row->mr.device), models::qs(row->mr.owner.name),
                              row->needs_dereg ? tr(" needs deregistration") : QString(),
                              models::qs(row->mr.advice)));
    advice_->setStyleSheet(
        row->needs_dereg
            ? QStringLiteral("QLabel { background: #fde0e0; color: #8e0000; padding: 3px; }")
            : QString());
}

}  // namespace rdmadiag::gui::widgets
