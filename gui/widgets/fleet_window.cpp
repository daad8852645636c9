#include "gui/widgets/fleet_window.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QStatusBar>
#include <QTreeView>

namespace rdmadiag::gui::widgets {

FleetWindow::FleetWindow(client::FleetFeed* feed, QWidget* parent)
    : QMainWindow(parent), feed_(feed), tree_(new QTreeView(this)), status_(new QLabel(this)) {
    feed_->setParent(this);
    setWindowTitle(
        tr("rdmadiag fleet: %1").arg(feed_->prometheus().toDisplayString(QUrl::RemoveUserInfo)));
    tree_->setObjectName(QStringLiteral("fleetTree"));
    tree_->setModel(&model_);
    tree_->setUniformRowHeights(true);
    tree_->setAllColumnsShowFocus(true);
    tree_->setExpandsOnDoubleClick(false);  // double-click opens the host's daemon
    tree_->header()->setSectionResizeMode(models::FleetModel::HostColumn, QHeaderView::Stretch);
    setCentralWidget(tree_);
    status_->setObjectName(QStringLiteral("fleetStatus"));
    status_->setText(tr("Asking %1 ...").arg(feed_->prometheus().toDisplayString()));
    statusBar()->addWidget(status_, 1);

    connect(feed_, &client::FleetFeed::stateReady, this,
            [this](const models::FleetState& state) { model_.set_state(state); });
    connect(feed_, &client::FleetFeed::statusChanged, this, [this](bool ok, const QString& text) {
        status_->setStyleSheet(ok ? QString()
                                  : QStringLiteral("QLabel { color: #ffffff; background: #c62828; "
                                                   "padding: 2px; }"));
        status_->setText(text);
    });
    connect(&model_, &QAbstractItemModel::modelReset, tree_, &QTreeView::expandAll);
    connect(tree_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const auto* host = model_.host_at(index)) {
            Q_EMIT openDaemon(daemon_url(QString::fromStdString(host->instance)));
        }
    });
    resize(900, 600);
}

void FleetWindow::start() {
    feed_->start();
}

QUrl FleetWindow::daemon_url(const QString& instance) {
    return QUrl(QStringLiteral("http://") + instance);
}

}  // namespace rdmadiag::gui::widgets
