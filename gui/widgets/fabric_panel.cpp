#include "gui/widgets/fabric_panel.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include "gui/models/dashboard_models.hpp"
#include "gui/models/display_text.hpp"
#include "gui/widgets/copyable_table_view.hpp"

namespace rdmadiag::gui::widgets {

FabricPanel::FabricPanel(models::DashboardModels& models, QWidget* parent)
    : QWidget(parent),
      models_(models),
      tree_(new QTreeView(this)),
      title_(new QLabel(this)),
      cache_(new QLabel(this)),
      pkey_proxy_(new QSortFilterProxyModel(this)),
      pkey_view_(new CopyableTableView(this)) {
    tree_->setObjectName(QStringLiteral("portTree"));
    tree_->setModel(&models_.ports);
    tree_->setUniformRowHeights(true);
    tree_->setAllColumnsShowFocus(true);
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(models::PortTreeModel::NameColumn, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(models::PortTreeModel::RateColumn,
                                          QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(models::PortTreeModel::StateColumn,
                                          QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(models::PortTreeModel::HealthColumn,
                                          QHeaderView::ResizeToContents);

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

    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(empty);
    rl->addLayout(top);
    rl->addWidget(cache_);
    rl->addWidget(pkey_view_, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tree_);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (syncing_) return;
                if (auto port = models_.ports.port_at(current)) {
                    if (port != models_.current_port()) {
                        models_.select_port(*port);
                        refresh();
                        Q_EMIT portSelected();
                    }
                }
            });
    connect(&models_.ports, &QAbstractItemModel::modelReset, tree_, &QTreeView::expandAll);
}

void FabricPanel::show_port(const PortRef& port) {
    const QModelIndex idx = models_.ports.index_of(port);
    if (idx.isValid()) tree_->setCurrentIndex(idx);
}

void FabricPanel::refresh() {
    const auto port = models_.current_port();
    if (port) {
        const QModelIndex idx = models_.ports.index_of(*port);
        if (idx.isValid() && tree_->currentIndex().siblingAtColumn(0) != idx) {
            syncing_ = true;  // following the model, not a user's choice
            tree_->setCurrentIndex(idx);
            syncing_ = false;
        }
    }
    title_->setText(port ? tr("<b>P_Key table of %1</b>").arg(models::qs(port->to_string()))
                         : tr("<b>P_Key table</b>: select a port"));
    cache_->setText(models_.pkeys.cache_summary());
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
