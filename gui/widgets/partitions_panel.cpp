#include "gui/widgets/partitions_panel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/models/dashboard_models.hpp"
#include "gui/models/display_text.hpp"
#include "gui/models/partition_filter_proxy.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/filtered_table.hpp"

namespace rdmadiag::gui::widgets {

namespace {

// A column wide enough for its header and for `sample`, the widest value it usually shows (in
// bold: the cells compared with the intent are).
void fit_column(QTableView* view, int column, const QString& sample) {
    const QString header = view->model()->headerData(column, Qt::Horizontal).toString();
    QFont bold = view->font();
    bold.setBold(true);
    const int text = std::max(view->horizontalHeader()->fontMetrics().horizontalAdvance(header),
                              QFontMetrics(bold).horizontalAdvance(sample));
    // The view's own margin on each side of a cell's text, and a little air.
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    view->setColumnWidth(
        column, text + 2 * margin + view->fontMetrics().horizontalAdvance(QLatin1Char('M')) / 4);
}

QString swatch(MemberDifference d) {
    return QStringLiteral("<span style='background:%1'>&nbsp;%2&nbsp;</span>")
        .arg(models::difference_cell(d).name(), models::qs(to_string(d)));
}

}  // namespace

PartitionsPanel::PartitionsPanel(models::DashboardModels& models, QWidget* parent)
    : QWidget(parent),
      models_(models),
      filter_(new models::PartitionFilterProxy(this)),
      intent_(new QLabel(this)),
      list_(new FilteredTable(&models_.partitions, models::PartitionListModel::SortRole,
                              tr("Filter partitions (Ctrl+F): P_Key or name"), this, filter_)),
      title_(new QLabel(this)),
      members_(new FilteredTable(&models_.partition_members, models::PartitionMemberModel::SortRole,
                                 tr("Filter member ports: node, GUID, missing, ..."), this)),
      findings_(new CopyableTableView(this)),
      finding_detail_(new QLabel(this)) {
    set_up_partition_list();
    set_up_member_table();
    QLabel* legend = build_legend();
    set_up_finding_table();
    lay_out(build_partition_side(legend));
    follow_selection();
}

void PartitionsPanel::set_up_partition_list() {
    intent_->setObjectName(QStringLiteral("partitionIntent"));
    intent_->setWordWrap(true);
    intent_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(list_->filter_edit(), &QLineEdit::textChanged, filter_,
            &models::PartitionFilterProxy::set_query);

    // Widths from the font, not from the rows: a partition of thousands of ports is not measured
    // row by row on every update.
    auto* lv = list_->view();
    lv->setObjectName(QStringLiteral("partitionList"));
    lv->setSelectionBehavior(QAbstractItemView::SelectRows);
    lv->setSelectionMode(QAbstractItemView::SingleSelection);
    lv->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    fit_column(lv, models::PartitionListModel::PKeyColumn, QStringLiteral("0x0000"));
    fit_column(lv, models::PartitionListModel::NameColumn, QStringLiteral("Storage"));
    for (int c = models::PartitionListModel::IntentColumn;
         c <= models::PartitionListModel::CacheColumn; ++c) {
        fit_column(lv, c, QStringLiteral("9999/99"));
    }
    fit_column(lv, models::PartitionListModel::DiffersColumn, QStringLiteral("999"));
    lv->horizontalHeader()->setStretchLastSection(true);
}

void PartitionsPanel::set_up_member_table() {
    auto* mv = members_->view();
    mv->setObjectName(QStringLiteral("partitionMembers"));
    mv->setSelectionBehavior(QAbstractItemView::SelectRows);
    mv->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    fit_column(mv, models::PartitionMemberModel::PortColumn, QStringLiteral("node0421 HCA-1:1"));
    fit_column(mv, models::PartitionMemberModel::DifferenceColumn, QStringLiteral("unexpected"));
    for (int c = models::PartitionMemberModel::IntentColumn;
         c <= models::PartitionMemberModel::CacheColumn; ++c) {
        fit_column(mv, c, QStringLiteral("limited"));
    }
    mv->horizontalHeader()->setStretchLastSection(true);
    mv->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    mv->setToolTip(tr("Enter or double-click a port to show it in the fabric"));

    title_->setObjectName(QStringLiteral("partitionTitle"));
    title_->setTextFormat(Qt::RichText);
    title_->setWordWrap(true);
}

QLabel* PartitionsPanel::build_legend() {
    auto* legend = new QLabel(this);
    legend->setTextFormat(Qt::RichText);
    legend->setWordWrap(true);
    legend->setText(
        tr("%1 the intent makes it a member, its table does not hold the key &nbsp; %2 it "
           "holds a key the intent does not give it &nbsp; %3 full against limited. "
           "<b>Bold</b>: the two views compared. Enter or double-click a port to show "
           "it in the fabric.")
            .arg(swatch(MemberDifference::missing), swatch(MemberDifference::unexpected),
                 swatch(MemberDifference::mismatch)));
    legend->setToolTip(
        tr("A port's holding is compared with the intent in its sma view where a "
           "subnet sweep read it, in its device view otherwise."));
    return legend;
}

void PartitionsPanel::set_up_finding_table() {
    findings_->setObjectName(QStringLiteral("partitionFindings"));
    findings_->setModel(&models_.partition_findings);
    findings_->setSortingEnabled(false);  // already in the findings panel's order
    findings_->setSelectionBehavior(QAbstractItemView::SelectRows);
    findings_->setColumnHidden(models::FindingsModel::SubjectColumn, true);
    findings_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // The severity's colour badge takes room besides its word.
    fit_column(findings_, models::FindingsModel::SeverityColumn, QStringLiteral("warning MM"));
    fit_column(findings_, models::FindingsModel::RuleColumn,
               QStringLiteral("partition.membership_mismatch"));
    fit_column(findings_, models::FindingsModel::SinceColumn, QStringLiteral("10:00:00 (10m00s)"));
    findings_->horizontalHeader()->setStretchLastSection(true);

    finding_detail_->setWordWrap(true);
    finding_detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    finding_detail_->setTextFormat(Qt::PlainText);
}

QWidget* PartitionsPanel::build_partition_side(QLabel* legend) {
    auto* top = new QWidget(this);
    auto* tl = new QVBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(title_);
    tl->addWidget(members_, 1);
    // The legend, the findings and their evidence scroll when room is short: the panel must not
    // ask the window for more height than the other tabs do, or the findings above would shrink.
    auto* details = new QWidget(this);
    auto* dl = new QVBoxLayout(details);
    dl->setContentsMargins(0, 0, 0, 0);
    dl->addWidget(legend);
    dl->addWidget(findings_);
    dl->addWidget(finding_detail_);
    dl->addStretch(1);
    auto* bottom = new QScrollArea(this);
    bottom->setWidget(details);
    bottom->setWidgetResizable(true);
    bottom->setFrameShape(QFrame::NoFrame);
    bottom->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(top);
    right->addWidget(bottom);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 1);
    right->setChildrenCollapsible(false);
    return right;
}

void PartitionsPanel::lay_out(QWidget* right) {
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(list_);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(intent_);
    layout->addWidget(split, 1);
    setFocusProxy(list_);
}

void PartitionsPanel::follow_selection() {
    auto* lv = list_->view();
    auto* mv = members_->view();
    connect(lv->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (syncing_ || !current.isValid()) return;
                const auto pkey = static_cast<uint16_t>(
                    current.data(models::PartitionListModel::PKeyRole).toUInt());
                if (models_.current_partition() == pkey) return;
                models_.select_partition(pkey);
                refresh();
                Q_EMIT partitionSelected();
            });
    connect(mv, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const QString device = index.data(models::PartitionMemberModel::DeviceRole).toString();
        if (device.isEmpty()) return;
        Q_EMIT portActivated(device,
                             index.data(models::PartitionMemberModel::PortNumberRole).toInt());
    });
    connect(findings_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PartitionsPanel::show_finding_detail);
    connect(&models_.partitions, &QAbstractItemModel::modelReset, this, &PartitionsPanel::refresh);
}

QSize PartitionsPanel::sizeHint() const {
    return {QWidget::sizeHint().width(), fontMetrics().height() * 14};
}

void PartitionsPanel::show_partition(uint16_t pkey) {
    const int row = models_.partitions.row_of(pkey);
    if (row >= 0 && !filter_->mapFromSource(models_.partitions.index(row, 0)).isValid()) {
        list_->filter_edit()->clear();  // hidden by the filter: show every partition again
    }
    if (models_.current_partition() != pkey) {
        models_.select_partition(pkey);
        Q_EMIT partitionSelected();
    }
    refresh();
}

void PartitionsPanel::refresh() {
    if (const auto pkey = models_.current_partition()) {
        const QModelIndex idx =
            filter_->mapFromSource(models_.partitions.index(models_.partitions.row_of(*pkey), 0));
        auto* lv = list_->view();
        if (idx.isValid() && lv->currentIndex().row() != idx.row()) {
            syncing_ = true;  // following the model, not a user's choice
            lv->setCurrentIndex(idx);
            syncing_ = false;
        }
    }
    show_intent();
    show_title();
    show_finding_detail();
}

void PartitionsPanel::show_intent() {
    const auto& info = models_.partitions_info();
    QStringList lines;
    QString style;
    if (!info.have) {
        lines << tr(
            "No partitions to show yet. A daemon serves them at /api/v1/partitions and a "
            "playback's engine builds them; saved snapshots do not carry them.");
    } else if (!info.intent) {
        lines << tr(
            "No intent: the partitions as the ports' P_Key tables hold them. A daemon "
            "started with --partitions.conf (or --partitions.conf here, with --simulate) "
            "compares them with the SM's partitions.conf.");
    } else {
        QString line = tr("Intent: the SM's partitions.conf");
        if (const auto& f = info.intent_file) {
            line =
                tr("Intent: %1, read %2 UTC").arg(models::qs(f->path), models::clock_text(f->read));
            if (f->issues.size() == 1) {
                line += tr("; line %1: %2")
                            .arg(f->issues.front().line)
                            .arg(models::qs(f->issues.front().message));
            } else if (!f->issues.empty()) {
                line += tr("; %1 lines not used as written, the first line %2: %3")
                            .arg(f->issues.size())
                            .arg(f->issues.front().line)
                            .arg(models::qs(f->issues.front().message));
            }
            if (f->generated_keys) {
                line +=
                    tr("; it leaves P_Keys to the SM, so partitions it does not define are "
                       "not judged");
            }
        }
        lines << line;
        for (const auto& u : info.unresolved) lines << tr("partitions.conf %1").arg(models::qs(u));
    }
    if (!info.problem.isEmpty()) {
        lines << tr("Partitions could not be read: %1").arg(info.problem);
        style = QStringLiteral("QLabel { background: #fff3d6; color: #7a4f00; padding: 3px; }");
    }
    intent_->setText(lines.join(QLatin1Char('\n')));
    intent_->setStyleSheet(style);
}

void PartitionsPanel::show_title() {
    const auto pkey = models_.current_partition();
    if (!pkey) {
        title_->setText(models_.partitions.empty() ? QString()
                                                   : tr("<b>Members</b>: choose a partition"));
        return;
    }
    const int row = models_.partitions.row_of(*pkey);
    const models::PartitionRow* p = models_.partitions.row_at(row);
    QString name = models::qs(format_pkey(*pkey));
    if (p && !p->name.empty()) name += QLatin1Char(' ') + models::qs(p->name);
    if (models_.partition_members.pkey() != pkey) {
        title_->setText(
            tr("<b>Partition %1</b>: reading its member ports ...").arg(name.toHtmlEscaped()));
        return;
    }
    QString where;
    if (p && models_.partitions.has_intent())
        where = p->intended ? tr(" (in partitions.conf)") : tr(" (not in partitions.conf)");
    const int members = models_.partition_members.rowCount();
    QString text =
        tr("<b>Partition %1</b>%2: %3 member ports").arg(name.toHtmlEscaped(), where).arg(members);
    if (p && p->differences) {
        text += *p->differences == 0
                    ? tr(", as the intent says")
                    : tr(", <span style='color:#8e0000'><b>%1 differ from the intent</b></span>")
                          .arg(*p->differences);
    }
    const int findings = models_.partition_findings.rowCount();
    if (findings > 0) text += tr("; %1 active findings below").arg(findings);
    title_->setText(text);
}

void PartitionsPanel::show_finding_detail() {
    const auto& rows = models_.partition_findings.findings();
    if (rows.empty()) {
        finding_detail_->clear();
        finding_detail_->setVisible(false);
        findings_->setVisible(false);
        return;
    }
    findings_->setVisible(true);
    finding_detail_->setVisible(true);
    // As tall as its rows, up to five: the evidence below should not be pushed out of sight.
    const int shown = std::min(static_cast<int>(rows.size()), 5);
    findings_->setFixedHeight(findings_->horizontalHeader()->height() +
                              shown * findings_->verticalHeader()->defaultSectionSize() +
                              2 * findings_->frameWidth());
    const QModelIndex current = findings_->currentIndex();
    const Finding* f =
        current.isValid() ? models_.partition_findings.finding_at(current.row()) : &rows.front();
    if (!f) f = &rows.front();
    finding_detail_->setText(
        tr("%1: %2\nAdvice: %3")
            .arg(models::qs(f->rule), models::qs(f->evidence), models::qs(f->advice)));
}

}  // namespace rdmadiag::gui::widgets
