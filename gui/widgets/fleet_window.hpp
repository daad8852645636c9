#pragma once
// The fleet view: every rdmadiag host a Prometheus scrapes, with its health and its active
// findings below it. Double-clicking a host asks for its own daemon to be opened in the normal
// dashboard (openDaemon), at http://<instance>.

#include <QMainWindow>
#include <QUrl>

#include "gui/client/fleet_feed.hpp"
#include "gui/models/fleet_model.hpp"

class QLabel;
class QTreeView;

namespace rdmadiag::gui::widgets {

class FleetWindow final : public QMainWindow {
    Q_OBJECT
public:
    // Takes ownership of the feed; call start() to begin.
    explicit FleetWindow(client::FleetFeed* feed, QWidget* parent = nullptr);

    void start();
    models::FleetModel& model() { return model_; }
    QTreeView* tree() const { return tree_; }
    QLabel* status_label() const { return status_; }

    // Where a host's daemon answers: http://<instance>.
    static QUrl daemon_url(const QString& instance);

Q_SIGNALS:
    void openDaemon(const QUrl& url);

private:
    models::FleetModel model_;
    client::FleetFeed* feed_;
    QTreeView* tree_;
    QLabel* status_;
};

}  // namespace rdmadiag::gui::widgets
