#pragma once
// Something that delivers snapshots to the dashboard and says how it is doing, in words for
// the status bar: a live daemon, or a playback.

#include <QObject>
#include <QString>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::gui::client {

enum class FeedHealth { connecting, ok, failing };

class SnapshotFeed : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~SnapshotFeed() override;

    virtual void start() = 0;
    // What it reads from: "daemon at http://...", "scenario 'default' (simulated fabric)".
    virtual QString description() const = 0;

    FeedHealth health() const { return health_; }
    QString status_text() const { return status_; }

Q_SIGNALS:
    void snapshotReady(rdmadiag::SnapshotPtr snapshot);
    void statusChanged(rdmadiag::gui::client::FeedHealth health, const QString& text);

protected:
    void set_status(FeedHealth health, const QString& text);

private:
    FeedHealth health_ = FeedHealth::connecting;
    QString status_;
};

}  // namespace rdmadiag::gui::client
