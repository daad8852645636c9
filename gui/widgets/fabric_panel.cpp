#include "gui/widgets/fabric_panel.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "gui/models/dashboard_models.hpp"
#include "gui/models/display_text.hpp"
#include "gui/models/port_tree_filter.hpp"
#include "gui/widgets/copyable_table_view.hpp"

namespace rdmadiag::gui::widgets {

FabricPanel::FabricPanel(models::DashboardModels& models, QWidget* parent)
    : QWidget(parent),
      models_(models),
      filter_(new models::PortTreeFilter(this)),
      search_(new QLineEdit(this)),
      search_delay_(new QTimer(this)),
      tree_(new QTreeView(this)),
      title_(new QLabel(this)),
      cache_(new QLabel(this)),
      pkey_proxy_(new QSortFilterProxyModel(this)),
      pkey_view_(new CopyableTableView(this)),
      tabs_(new QTabWidget(this)),
      gid_label_(new QLabel(this)),
      gid_proxy_(new QSortFilterProxyModel(this)),
      gid_view_(new CopyableTableView(this)),
      consumer_label_(new QLabel(this)),
      consumer_proxy_(new QSortFilterProxyModel(this)),
      consumer_view_(new CopyableTableView(this)) {
    set_up_port_tree();
    QWidget* pkeys = build_pkey_tab();
    QWidget* gids = build_gid_tab();
    tabs_->setObjectName(QStringLiteral("portTabs"));
    tabs_->addTab(pkeys, tr("P_Keys"));
    tabs_->addTab(gids, tr("GIDs"));
    consumer_tab_ = build_consumer_tab();
    tabs_->addTab(consumer_tab_, tr("Consumers"));
    connect(tabs_, &QTabWidget::currentChanged, this, &FabricPanel::portTabChanged);
    lay_out(build_tree_side(), tabs_);
    follow_selection();
}

void FabricPanel::set_up_port_tree() {
    filter_->setSourceModel(&models_.ports);
    tree_->setObjectName(QStringLiteral("portTree"));
    tree_->setModel(filter_);
    tree_->setUniformRowHeights(true);
    tree_->setAllColumnsShowFocus(true);
    // Fixed widths from the font: sizing columns to their contents would measure thousands of
    // rows on every change.
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    auto* header = tree_->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(models::PortTreeModel::NameColumn, QHeaderView::Stretch);
    header->resizeSection(models::PortTreeModel::KeyColumn, 10 * em);
    header->resizeSection(models::PortTreeModel::LidColumn, 3 * em);
    header->resizeSection(models::PortTreeModel::StateColumn, 4 * em);
    header->resizeSection(models::PortTreeModel::RateColumn, 6 * em);
    header->resizeSection(models::PortTreeModel::HealthColumn, 5 * em);

    search_->setObjectName(QStringLiteral("fabricSearch"));
    search_->setPlaceholderText(tr("Search nodes: name, GUID or LID"));
    search_->setClearButtonEnabled(true);
    search_delay_->setSingleShot(true);
    search_delay_->setInterval(150);  // one filter pass per pause in typing, not per key
    connect(search_, &QLineEdit::textChanged, search_delay_, qOverload<>(&QTimer::start));
    connect(search_delay_, &QTimer::timeout, this, [this] {
        filter_->set_query(search_->text());
        expand_for_reading();
    });
}

QWidget* FabricPanel::build_pkey_tab() {
    pkey_view_->setObjectName(QStringLiteral("pkeyView"));
    pkey_proxy_->setSourceModel(&models_.pkeys);
    pkey_proxy_->setSortRole(models::PKeyTableModel::SortRole);
    pkey_view_->setModel(pkey_proxy_);
    pkey_view_->sortByColumn(models::PKeyTableModel::IndexColumn, Qt::AscendingOrder);
    pkey_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    pkey_view_->horizontalHeader()->setStretchLastSection(true);

    title_->setTextFormat(Qt::RichText);
    cache_->setWordWrap(true);
    cache_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* empty = new QCheckBox(tr("Show empty slots"), this);
    connect(empty, &QCheckBox::toggled, this,
            [this](bool on) { models_.pkeys.set_show_empty(on); });

    auto* pkeys = new QWidget(this);
    auto* rl = new QVBoxLayout(pkeys);
    rl->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(empty);
    rl->addLayout(top);
    rl->addWidget(cache_);
    rl->addWidget(pkey_view_, 1);
    return pkeys;
}

QWidget* FabricPanel::build_gid_tab() {
    gid_view_->setObjectName(QStringLiteral("gidView"));
    gid_proxy_->setSourceModel(&models_.gids);
    gid_proxy_->setSortRole(models::GidTableModel::SortRole);
    gid_view_->setModel(gid_proxy_);
    gid_view_->sortByColumn(models::GidTableModel::IndexColumn, Qt::AscendingOrder);
    gid_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    gid_view_->horizontalHeader()->setStretchLastSection(true);
    gid_label_->setObjectName(QStringLiteral("gidSummary"));
    gid_label_->setWordWrap(true);
    gid_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* gids = new QWidget(this);
    auto* gl = new QVBoxLayout(gids);
    gl->setContentsMargins(0, 0, 0, 0);
    gl->addWidget(gid_label_);
    gl->addWidget(gid_view_, 1);
    return gids;
}

QWidget* FabricPanel::build_consumer_tab() {
    consumer_view_->setObjectName(QStringLiteral("consumerView"));
    consumer_proxy_->setSourceModel(&models_.consumers);
    consumer_proxy_->setSortRole(models::ConsumerTableModel::SortRole);
    consumer_view_->setModel(consumer_proxy_);
    consumer_view_->sortByColumn(models::ConsumerTableModel::KindColumn, Qt::AscendingOrder);
    consumer_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    consumer_view_->horizontalHeader()->setStretchLastSection(true);
    consumer_label_->setObjectName(QStringLiteral("consumerSummary"));
    consumer_label_->setWordWrap(true);
    consumer_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* tab = new QWidget(this);
    auto* cl = new QVBoxLayout(tab);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->addWidget(consumer_label_);
    cl->addWidget(consumer_view_, 1);
    return tab;
}

void FabricPanel::show_consumers() {
    tabs_->setCurrentWidget(consumer_tab_);
    if (auto row = models_.consumers.first_hit_row()) {
        const QModelIndex at = consumer_proxy_->mapFromSource(models_.consumers.index(*row, 0));
        consumer_view_->setCurrentIndex(at);
        consumer_view_->scrollTo(at);
    }
}

bool FabricPanel::consumers_tab_current() const {
    return tabs_->currentWidget() == consumer_tab_;
}

QWidget* FabricPanel::build_tree_side() {
    auto* left = new QWidget(this);
    auto* ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(search_);
    ll->addWidget(tree_, 1);
    return left;
}

void FabricPanel::lay_out(QWidget* left, QWidget* right) {
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);
}

void FabricPanel::follow_selection() {
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (syncing_) return;
                if (auto port = models_.ports.port_at(filter_->mapToSource(current))) {
                    if (port != models_.current_port()) {
                        models_.select_port(*port);
                        refresh();
                        Q_EMIT portSelected();
                    }
                }
            });
    connect(&models_.ports, &QAbstractItemModel::modelReset, this,
            &FabricPanel::expand_for_reading);
}

void FabricPanel::expand_for_reading() {
    // A few adapters are shown with every port; a subnet shows its groups, and the nodes a
    // search found, with their ports folded until asked for.
    constexpr size_t kUnfoldPorts = 64;
    if (models_.ports.port_count() <= kUnfoldPorts) {
        tree_->expandAll();
        return;
    }
    tree_->expandToDepth(0);
    if (filter_->query().isEmpty()) return;
    const int groups = filter_->rowCount();
    for (int g = 0; g < groups; ++g) {
        const QModelIndex group = filter_->index(g, 0);
        if (filter_->rowCount(group) > 16) continue;  // too many hits to unfold each
        for (int n = 0; n < filter_->rowCount(group); ++n)
            tree_->expand(filter_->index(n, 0, group));
    }
}

QModelIndex FabricPanel::view_index_of(const PortRef& port) const {
    return filter_->mapFromSource(models_.ports.index_of(port));
}

void FabricPanel::show_port(const PortRef& port) {
    QModelIndex idx = view_index_of(port);
    if (!idx.isValid() && !filter_->query().isEmpty()) {
        search_->clear();  // the port is hidden by the search: show everything again
        filter_->set_query(QString());
        idx = view_index_of(port);
    }
    if (idx.isValid()) tree_->setCurrentIndex(idx);
}

void FabricPanel::refresh() {
    const auto port = models_.current_port();
    if (port) {
        const QModelIndex idx = view_index_of(*port);
        if (idx.isValid() && tree_->currentIndex().siblingAtColumn(0) != idx) {
            syncing_ = true;  // following the model, not a user's choice
            tree_->setCurrentIndex(idx);
            syncing_ = false;
        }
    }
    title_->setText(
        port ? tr("<b>P_Key table of %1</b>").arg(models_.names.port(*port).toHtmlEscaped())
             : tr("<b>P_Key table</b>: select a port"));
    title_->setToolTip(port ? models::qs(port->to_string()) : QString());
    cache_->setText(models_.pkeys.cache_summary());
    gid_label_->setText(models_.gids.coherence_summary());
    QString consumers = models_.consumers.summary();
    if (!models_.consumers_problem().isEmpty())
        consumers += QLatin1Char(' ') + models_.consumers_problem();
    consumer_label_->setText(consumers);
    gid_label_->setStyleSheet(
        models_.gids.coherence() == GidCoherence::stale
            ? QStringLiteral("QLabel { background: #fde0e0; color: #8e0000; padding: 3px; }")
            : QString());
    // An InfiniBand port has no netdevs and a RoCE port no SMA: show what the port has.
    for (int c = models::GidTableModel::TypeColumn; c < models::GidTableModel::StateColumn; ++c) {
        gid_view_->setColumnHidden(c, !models_.gids.column_used(c));
    }
    switch (models_.pkeys.cache_judgement()) {
        case CacheJudgement::stale:
            cache_->setStyleSheet(
                QStringLiteral("QLabel { background: #fde0e0; color: #8e0000; padding: 3px; }"));
            break;
        case CacheJudgement::pending:
            cache_->setStyleSheet(
                QStringLiteral("QLabel { background: #fff3d6; color: #7a4f00; padding: 3px; }"));
            break;
        default:
            cache_->setStyleSheet(QString());
            break;
    }
}

}  // namespace rdmadiag::gui::widgets
