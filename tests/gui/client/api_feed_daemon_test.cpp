// ApiFeed against a real `rdmadiag serve --simulate` on loopback: the daemon's answers decode,
// and when the daemon is stopped the feed says so and keeps retrying. Skips when this build has
// no HTTP exporter (no rdmadiag serve).
#include <gtest/gtest.h>

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>

#include "gui/client/api_feed.hpp"
#include "tests/gui/test_snapshots.hpp"

namespace rdmadiag::gui::client {
namespace {

const QString kRdmadiag = QStringLiteral(RDMADIAG_BINARY_DIR "/cli/rdmadiag");

// Starts the daemon on a free loopback port and returns the port, or 0 (with the log in `why`).
int start_daemon(QProcess& p, QString& why) {
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(kRdmadiag, {QStringLiteral("serve"), QStringLiteral("--web.listen-address=127.0.0.1:0"),
                        QStringLiteral("--simulate=mr-xprtrdma-stuck")});
    if (!p.waitForStarted(10000)) {
        why = p.errorString();
        return 0;
    }
    static const QRegularExpression listening(QStringLiteral("msg=listening .*port=(\\d+)"));
    QByteArray log;
    while (p.state() == QProcess::Running && p.waitForReadyRead(30000)) {
        log += p.readAll();
        const auto m = listening.match(QString::fromUtf8(log));
        if (m.hasMatch()) return m.captured(1).toInt();
    }
    why = QString::fromUtf8(log + p.readAll());
    return 0;
}

TEST(ApiFeedDaemon, ReadsALiveDaemonAndReportsWhenItGoesAway) {
    if (!QFileInfo(kRdmadiag).isExecutable()) {
        GTEST_SKIP() << kRdmadiag.toStdString()
                     << " not built (the HTTP exporter needs Boost, OpenSSL and zlib)";
    }
    QProcess daemon;
    QString why;
    const int port = start_daemon(daemon, why);
    ASSERT_GT(port, 0) << "rdmadiag serve did not start: " << why.toStdString();

    ApiFeedOptions options;
    options.interval = std::chrono::milliseconds(100);
    options.first_retry = std::chrono::milliseconds(50);
    ApiFeed feed(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), options);
    std::vector<SnapshotPtr> got;
    QObject::connect(&feed, &SnapshotFeed::snapshotReady, [&](SnapshotPtr s) { got.push_back(s); });
    QSignalSpy status(&feed, &SnapshotFeed::statusChanged);
    feed.start();
    while (got.size() < 2) ASSERT_TRUE(status.wait(10000)) << feed.status_text().toStdString();
    EXPECT_EQ(feed.health(), FeedHealth::ok);
    ASSERT_NE(got.back()->find_device("mlx5_0"), nullptr);
    EXPECT_GE(got.back()->sequence, got.front()->sequence);

    daemon.terminate();
    ASSERT_TRUE(daemon.waitForFinished(10000));
    while (feed.health() != FeedHealth::failing) ASSERT_TRUE(status.wait(10000));
    EXPECT_TRUE(feed.status_text().contains(QStringLiteral("Connection refused")))
        << feed.status_text().toStdString();
}

}  // namespace
}  // namespace rdmadiag::gui::client
