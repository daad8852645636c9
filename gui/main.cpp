// rdmadiag-gui: the desktop dashboard. Thin: parse the command line, make the feed, show the
// window (or render it once for --screenshot).

#include <QApplication>
#include <QDateTime>
#include <QLineEdit>
#include <QScreen>
#include <QTimer>
#include <cstdio>

#include "collector/sim/shipped_scenarios.hpp"
#include "gui/client/api_feed.hpp"
#include "gui/client/fleet_feed.hpp"
#include "gui/client/gui_options.hpp"
#include "gui/client/playback_feed.hpp"
#include "gui/widgets/fabric_panel.hpp"
#include "gui/widgets/fleet_window.hpp"
#include "gui/widgets/main_window.hpp"

namespace {

int screenshot(rdmadiag::gui::widgets::MainWindow& window,
               const rdmadiag::gui::client::GuiOptions& o) {
    using namespace rdmadiag::gui;
    auto* playback = qobject_cast<client::PlaybackFeed*>(window.feed());
    window.show();
    if (playback) {
        playback->start();
        playback->pause();
        playback->fast_forward(
            std::chrono::milliseconds(static_cast<int64_t>(o.at_s.value_or(0) * 1000)));
    } else {
        window.start();
    }
    // Let layouts, the chart and (for a daemon) the first answer settle before grabbing.
    int rc = 1;
    QTimer::singleShot(playback ? 500 : 3000, &window, [&] {
        const QPixmap shot = window.grab();
        rc = shot.save(QString::fromStdString(o.screenshot), "PNG") ? 0 : 1;
        if (rc != 0) std::fprintf(stderr, "rdmadiag-gui: cannot write %s\n", o.screenshot.c_str());
        QApplication::quit();
    });
    QApplication::exec();
    return rc;
}

// The fleet view; each host double-clicked opens its daemon in a dashboard window of its own.
int fleet(const rdmadiag::gui::client::GuiOptions& o) {
    using namespace rdmadiag::gui;
    widgets::FleetWindow window(client::make_fleet_feed(o));
    window.resize(o.width, o.height);
    QObject::connect(&window, &widgets::FleetWindow::openDaemon, &window, [&](const QUrl& url) {
        client::ApiFeedOptions api;
        api.interval = std::chrono::milliseconds(static_cast<int64_t>(o.interval_s * 1000));
        auto* dashboard = new widgets::MainWindow(new client::ApiFeed(url, api));
        dashboard->setAttribute(Qt::WA_DeleteOnClose);
        dashboard->show();
        dashboard->start();
    });
    window.show();
    window.start();
    if (!o.screenshot.empty()) {
        int rc = 1;
        QTimer::singleShot(3000, &window, [&] {
            rc = window.grab().save(QString::fromStdString(o.screenshot), "PNG") ? 0 : 1;
            QApplication::quit();
        });
        QApplication::exec();
        return rc;
    }
    return QApplication::exec();
}

// --trace: one line per snapshot or delta, after the window has applied it (its own connection
// comes first), with the wall clock in milliseconds since the epoch.
void trace_feed(rdmadiag::gui::client::SnapshotFeed* feed) {
    using namespace rdmadiag;
    auto now_ms = [] { return QDateTime::currentMSecsSinceEpoch(); };
    QObject::connect(feed, &gui::client::SnapshotFeed::snapshotReady, [=](SnapshotPtr s) {
        std::fprintf(stderr, "trace t=%lld snapshot sequence=%llu devices=%zu\n", now_ms(),
                     static_cast<unsigned long long>(s->sequence), s->devices.size());
    });
    QObject::connect(feed, &gui::client::SnapshotFeed::deltaReady,
                     [=](const std::shared_ptr<gui::models::SnapshotDelta>& d, bool) {
                         // The window has moved the delta's devices out; the sequence stays.
                         std::fprintf(stderr, "trace t=%lld delta sequence=%llu\n", now_ms(),
                                      static_cast<unsigned long long>(d->sequence));
                     });
}

}  // namespace

int main(int argc, char** argv) {
    // Parsed before the QApplication exists, so --help and --list-scenarios need no display.
    QStringList args;
    for (int i = 1; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    auto options = rdmadiag::gui::client::parse_gui_options(args);
    if (!options) {
        std::fprintf(stderr, "rdmadiag-gui: %s\n%s", options.error().message.c_str(),
                     rdmadiag::gui::client::gui_usage().toLocal8Bit().constData());
        return 2;
    }
    if (options->help) {
        std::fputs(rdmadiag::gui::client::gui_usage().toLocal8Bit().constData(), stdout);
        return 0;
    }
    if (options->list_scenarios) {
        for (const auto& s : rdmadiag::sim::shipped_scenarios()) {
            std::printf("%.*s\n", static_cast<int>(s.name.size()), s.name.data());
        }
        return 0;
    }
    QApplication::setHighDpiScaleFactorRoundingPolicy(
        Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("rdmadiag-gui"));

    if (options->mode == rdmadiag::gui::client::GuiOptions::Mode::fleet) return fleet(*options);

    auto feed = rdmadiag::gui::client::make_feed(*options);
    if (!feed) {
        std::fprintf(stderr, "rdmadiag-gui: %s\n", feed.error().message.c_str());
        return 2;
    }
    rdmadiag::gui::widgets::MainWindow window(*feed);
    if (options->trace) {
        trace_feed(*feed);
        // What a person would see: every device row the tree changed, by name.
        QObject::connect(
            &window.models().ports, &QAbstractItemModel::dataChanged, [](const QModelIndex& first) {
                const QString device =
                    first.data(rdmadiag::gui::models::PortTreeModel::DeviceRole).toString();
                if (device.isEmpty()) return;
                std::fprintf(stderr, "trace t=%lld tree-row device=%s\n",
                             QDateTime::currentMSecsSinceEpoch(), device.toLocal8Bit().constData());
            });
    }
    window.resize(options->width, options->height);
    if (!options->search.empty()) {
        window.fabric_panel()->search_box()->setText(QString::fromStdString(options->search));
    }
    if (options->partition) window.show_partition(*options->partition);
    if (options->consumers_of) window.show_consumers(*options->consumers_of);
    if (!options->screenshot.empty()) return screenshot(window, *options);

    if (auto* playback = qobject_cast<rdmadiag::gui::client::PlaybackFeed*>(*feed);
        playback && options->at_s) {
        playback->fast_forward(
            std::chrono::milliseconds(static_cast<int64_t>(*options->at_s * 1000)));
    }
    window.show();
    window.start();
    return QApplication::exec();
}
