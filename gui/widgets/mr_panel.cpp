#include "gui/widgets/mr_panel.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QVBoxLayout>

#include "gui/models/display_text.hpp"
#include "gui/models/mr_filter_proxy.hpp"
#include "gui/models/mr_table_model.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/filtered_table.hpp"

namespace rdmadiag::gui::widgets {

MrPanel::MrPanel(models::MrTableModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new models::MrFilterProxy(this)),
      table_(new FilteredTable(model, models::MrTableModel::SortRole, tr("Filter MRs (Ctrl+F)"),
                               this, proxy_)),
      state_(new QComboBox(this)),
      advice_(new QLabel(this)) {
    state_->addItem(tr("All states"), QString());
    state_->addItem(tr("Flagged (needs dereg / unknown)"),
                    QString::fromLatin1(models::MrFilterProxy::kFlagged));
    for (auto s : {MrState::valid, MrState::invalid, MrState::unknown, MrState::stuck,
                   MrState::deregistered}) {
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

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(table_, 1);
    layout->addWidget(advice_);
    setFocusProxy(table_);
    connect(table_->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MrPanel::show_advice);
}

void MrPanel::refresh() {
    show_advice();
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
