#include "gui/widgets/findings_panel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QVBoxLayout>

#include "collector/model/pkey.hpp"
#include "gui/models/display_text.hpp"
#include "gui/models/findings_model.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/filtered_table.hpp"

namespace rdmadiag::gui::widgets {

FindingsPanel::FindingsPanel(models::FindingsModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      headline_(new QLabel(this)),
      table_(new FilteredTable(model, models::FindingsModel::SortRole,
                               tr("Filter findings (Ctrl+F)"), this)),
      detail_(new QLabel(this)) {
    headline_->setTextFormat(Qt::RichText);
    table_->bar()->insertWidget(0, headline_, 3);
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detail_->setTextFormat(Qt::PlainText);
    detail_->setMinimumHeight(detail_->fontMetrics().height() * 2 + 8);
    detail_->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    auto* view = table_->view();
    view->setObjectName(QStringLiteral("findingsView"));
    auto* header = view->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    view->setColumnWidth(models::FindingsModel::SeverityColumn, em * 6);
    view->setColumnWidth(models::FindingsModel::RuleColumn, em * 14);
    view->setColumnWidth(models::FindingsModel::SubjectColumn, em * 14);
    view->setColumnWidth(models::FindingsModel::SinceColumn, em * 8);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(table_, 1);
    layout->addWidget(detail_);
    setFocusProxy(table_);

    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &FindingsPanel::show_detail);
    connect(view, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const auto src = table_->proxy()->mapToSource(index);
        const Finding* f = model_->finding_at(src.row());
        if (f && f->subject.port) {
            Q_EMIT portActivated(models::qs(f->subject.device), static_cast<int>(*f->subject.port),
                                 models::qs(f->rule));
        } else if (f && f->subject.device.empty() && f->subject.pkey) {
            Q_EMIT partitionActivated(pkey_base(*f->subject.pkey));
        }
    });
}

void FindingsPanel::refresh() {
    int critical = 0;
    int warning = 0;
    int priority = 0;
    for (const auto& f : model_->findings()) {
        if (f.severity == Severity::critical) ++critical;
        if (f.severity == Severity::warning) ++warning;
        if (models::is_priority_rule(f.rule)) ++priority;
    }
    if (model_->findings().empty()) {
        headline_->setText(tr("<b>Findings</b>: none active. The fabric looks healthy."));
    } else {
        headline_->setText(tr("<b>Findings</b>: %1 active, <span style='color:#c62828'>%2 "
                              "critical</span>, %3 warning; %4 stale cache / needs deregistration")
                               .arg(model_->findings().size())
                               .arg(critical)
                               .arg(warning)
                               .arg(priority));
    }
    show_detail();
}

void FindingsPanel::show_detail() {
    const QModelIndex current = table_->view()->currentIndex();
    const Finding* f = current.isValid()
                           ? model_->finding_at(table_->proxy()->mapToSource(current).row())
                           : nullptr;
    if (!f && !model_->findings().empty()) f = &model_->findings().front();
    if (!f) {
        detail_->clear();
        return;
    }
    detail_->setText(tr("%1 on %2: %3\nAdvice: %4")
                         .arg(models::qs(f->rule), model_->subject_text(*f),
                              models::qs(f->evidence), models::qs(f->advice)));
}

}  // namespace rdmadiag::gui::widgets
