#include "gui/widgets/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include "gui/client/playback_feed.hpp"
#include "gui/models/display_text.hpp"
#include "gui/widgets/copyable_table_view.hpp"
#include "gui/widgets/counters_panel.hpp"
#include "gui/widgets/fabric_panel.hpp"
#include "gui/widgets/filtered_table.hpp"
#include "gui/widgets/findings_panel.hpp"
#include "gui/widgets/mr_panel.hpp"
#include "gui/widgets/partitions_panel.hpp"
#include "gui/widgets/playback_bar.hpp"

namespace rdmadiag::gui::widgets {

MainWindow::MainWindow(client::SnapshotFeed* feed, QWidget* parent)
    : QMainWindow(parent),
      feed_(feed),
      findings_(new FindingsPanel(&models_.findings, this)),
      tabs_(new QTabWidget(this)),
      fabric_(new FabricPanel(models_, this)),
      counters_(new CountersPanel(models_, this)),
      events_(new FilteredTable(&models_.events, models::EventModel::SortRole,
                                tr("Filter events (Ctrl+F): PKEY_CHANGE, mlx5_0, ..."), this)),
      mrs_(new MrPanel(&models_.mrs, &models_.mr_processes, this)),
      partitions_(new PartitionsPanel(models_, this)),
      connection_(new QLabel(this)),
      snapshot_info_(new QLabel(this)) {
    feed_->setParent(this);
    setWindowTitle(tr("rdmadiag: %1").arg(feed_->description()));
    lay_out_panels();
    add_playback_bar();
    set_up_status_bar();
    add_shortcuts();
    follow_feed();
    link_panels();
    on_status(feed_->health(), tr("Starting ..."));
    resize(1280, 800);
}

void MainWindow::lay_out_panels() {
    events_->view()->setObjectName(QStringLiteral("eventView"));
    events_->view()->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    events_->view()->horizontalHeader()->setStretchLastSection(true);

    tabs_->addTab(fabric_, tr("&Fabric && P_Keys"));
    tabs_->addTab(counters_, tr("&Counters"));
    tabs_->addTab(events_, tr("&Events"));
    tabs_->addTab(mrs_, tr("&Memory regions"));
    tabs_->addTab(partitions_, tr("&Partitions"));
    tabs_->setDocumentMode(true);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(findings_);
    split->addWidget(tabs_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    setCentralWidget(split);
}

void MainWindow::add_playback_bar() {
    if (auto* playback = qobject_cast<client::PlaybackFeed*>(feed_)) {
        auto* bar = addToolBar(tr("Playback"));
        bar->setObjectName(QStringLiteral("playbackBar"));
        bar->setMovable(false);
        bar->addWidget(new PlaybackBar(playback, bar));
    }
}

void MainWindow::set_up_status_bar() {
    connection_->setObjectName(QStringLiteral("connectionLabel"));
    connection_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(connection_, 1);
    statusBar()->addPermanentWidget(snapshot_info_);
}

void MainWindow::add_shortcuts() {
    // Keyboard: Ctrl+1 findings, Ctrl+2..6 the tabs; Alt+letter also picks a tab.
    auto add_focus = [this](const QKeySequence& keys, std::function<void()> go) {
        auto* a = new QAction(this);
        a->setShortcut(keys);
        connect(a, &QAction::triggered, this, std::move(go));
        addAction(a);
    };
    add_focus(QKeySequence(Qt::CTRL | Qt::Key_1), [this] { findings_->setFocus(); });
    for (int i = 0; i < tabs_->count(); ++i) {
        add_focus(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_2 + i)), [this, i] {
            tabs_->setCurrentIndex(i);
            tabs_->currentWidget()->setFocus();
        });
    }
    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    addAction(quit);
}

void MainWindow::follow_feed() {
    connect(feed_, &client::SnapshotFeed::snapshotReady, this, &MainWindow::show_snapshot);
    connect(feed_, &client::SnapshotFeed::deltaReady, this,
            [this](const std::shared_ptr<models::SnapshotDelta>& delta, bool restart) {
                if (delta) show_delta(std::move(*delta), restart);
            });
    connect(feed_, &client::SnapshotFeed::countersReady, this,
            [this](const PortRef& port, const std::vector<CounterState>& counters, TimePoint time) {
                models_.set_port_counters(port, counters, time);
                if (models_.current_port() == port) counters_->refresh();
            });
    connect(feed_, &client::SnapshotFeed::partitionsReady, this,
            [this](const std::shared_ptr<const models::PartitionListing>& listing) {
                if (!listing) return;
                models_.set_partitions(*listing);
                partitions_->refresh();
                follow_partitions();
            });
    connect(feed_, &client::SnapshotFeed::partitionsFailed, this, [this](const QString& why) {
        models_.set_partitions_problem(why);
        partitions_->refresh();
    });
    connect(feed_, &client::SnapshotFeed::consumersReady, this,
            [this](const std::shared_ptr<const HostConsumers>& consumers) {
                models_.set_consumers(consumers);
                fabric_->refresh();
            });
    connect(feed_, &client::SnapshotFeed::consumersFailed, this, [this](const QString& why) {
        models_.set_consumers_problem(why);
        fabric_->refresh();
    });
    connect(feed_, &client::SnapshotFeed::statusChanged, this, &MainWindow::on_status);
}

void MainWindow::link_panels() {
    connect(findings_, &FindingsPanel::portActivated, this,
            [this](const QString& dev, int port, const QString& rule) {
                fabric_->show_port(PortRef{dev.toStdString(), static_cast<uint32_t>(port)});
                tabs_->setCurrentWidget(fabric_);
                if (rule.startsWith(QLatin1String("consumer."))) fabric_->show_consumers();
            });
    connect(findings_, &FindingsPanel::partitionActivated, this,
            [this](int pkey) { show_partition(static_cast<uint16_t>(pkey)); });
    connect(partitions_, &PartitionsPanel::portActivated, this,
            [this](const QString& dev, int port) {
                fabric_->show_port(PortRef{dev.toStdString(), static_cast<uint32_t>(port)});
                tabs_->setCurrentWidget(fabric_);
            });
    connect(partitions_, &PartitionsPanel::partitionSelected, this, &MainWindow::follow_partitions);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::follow_partitions);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::follow_consumers);
    connect(fabric_, &FabricPanel::portTabChanged, this, &MainWindow::follow_consumers);
    connect(fabric_, &FabricPanel::portSelected, this, [this] {
        follow_current_port();
        counters_->refresh();
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::start() {
    feed_->start();
}

void MainWindow::show_snapshot(SnapshotPtr snapshot) {
    if (!snapshot) return;
    models_.apply(std::move(snapshot));
    follow_current_port();
    follow_partitions();
    refresh_panels();
}

void MainWindow::show_partition(uint16_t pkey) {
    tabs_->setCurrentWidget(partitions_);
    partitions_->show_partition(pkey);
}

void MainWindow::show_consumers(const PortRef& port) {
    models_.select_port(port);
    tabs_->setCurrentWidget(fabric_);
    fabric_->show_consumers();
    fabric_->refresh();
    follow_current_port();
}

void MainWindow::show_delta(models::SnapshotDelta delta, bool restart) {
    if (restart) models_.reset();
    const auto port = models_.current_port();
    const models::DeltaEffect effect = models_.apply_delta(std::move(delta));
    follow_current_port();
    findings_->refresh();  // the findings' ages move with every delta
    if (models_.current_port() != port || effect.reshaped || effect.findings_changed ||
        (port && effect.touches(port->device))) {
        fabric_->refresh();
        counters_->refresh();
    }
    if (effect.mrs_changed || effect.findings_changed) mrs_->refresh();
    if (restart || effect.findings_changed) partitions_->refresh();
    follow_partitions();
    show_snapshot_info();
}

void MainWindow::follow_current_port() {
    feed_->watch_port(models_.current_port());
}

void MainWindow::follow_partitions() {
    feed_->watch_partitions(tabs_->currentWidget() == partitions_, models_.current_partition());
}

void MainWindow::follow_consumers() {
    feed_->watch_consumers(tabs_->currentWidget() == fabric_ && fabric_->consumers_tab_current());
}

void MainWindow::refresh_panels() {
    findings_->refresh();
    fabric_->refresh();
    counters_->refresh();
    mrs_->refresh();
    partitions_->refresh();
    show_snapshot_info();
}

void MainWindow::show_snapshot_info() {
    if (const auto& s = models_.snapshot()) {
        snapshot_info_->setText(
            tr("snapshot #%1 at %2 UTC").arg(s->sequence).arg(models::clock_text(s->time)));
    }
}

void MainWindow::on_status(client::FeedHealth health, const QString& text) {
    QString style;
    switch (health) {
        case client::FeedHealth::ok:
            style = QStringLiteral("QLabel { color: #1b5e20; }");
            break;
        case client::FeedHealth::connecting:
            style = QStringLiteral("QLabel { color: #e65100; }");
            break;
        case client::FeedHealth::failing:
            style = QStringLiteral("QLabel { color: #ffffff; background: #c62828; padding: 2px; }");
            break;
    }
    connection_->setStyleSheet(style);
    connection_->setText(text);
}

}  // namespace rdmadiag::gui::widgets
