#pragma once
// The dashboard window: findings first (top), then tabs for the fabric and its P_Key tables,
// counters, the async-event timeline, memory regions and partitions. The status bar says where the
// data comes from and whether it is flowing.

#include <QMainWindow>
#include <memory>

#include "gui/client/snapshot_feed.hpp"
#include "gui/models/dashboard_models.hpp"

class QLabel;
class QTabWidget;

namespace rdmadiag::gui::widgets {

class CountersPanel;
class FabricPanel;
class FilteredTable;
class FindingsPanel;
class MrPanel;
class PartitionsPanel;

class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    // Takes ownership of the feed; call start() to begin.
    explicit MainWindow(client::SnapshotFeed* feed, QWidget* parent = nullptr);
    ~MainWindow() override;

    void start();
    void show_snapshot(SnapshotPtr snapshot);
    // One answer of a daemon's change feed: only the panels it touches are refreshed.
    void show_delta(models::SnapshotDelta delta, bool restart);

    models::DashboardModels& models() { return models_; }
    FindingsPanel* findings_panel() const { return findings_; }
    FabricPanel* fabric_panel() const { return fabric_; }
    CountersPanel* counters_panel() const { return counters_; }
    FilteredTable* events_panel() const { return events_; }
    MrPanel* mr_panel() const { return mrs_; }
    PartitionsPanel* partitions_panel() const { return partitions_; }
    // Opens the Partitions tab on this partition (a base P_Key).
    void show_partition(uint16_t pkey);
    // Opens the fabric view on this port's consumers.
    void show_consumers(const PortRef& port);
    QTabWidget* tabs() const { return tabs_; }
    QLabel* connection_label() const { return connection_; }
    client::SnapshotFeed* feed() const { return feed_; }

private:
    // The constructor's steps: the findings over the tabs, the playback bar (playing a timeline),
    // the status bar, the keyboard, what the feed delivers, and the panels' links to each other.
    void lay_out_panels();
    void add_playback_bar();
    void set_up_status_bar();
    void add_shortcuts();
    void follow_feed();
    void link_panels();
    void on_status(client::FeedHealth health, const QString& text);
    void refresh_panels();
    void show_snapshot_info();
    void follow_current_port();  // tells the feed whose counters to read
    void follow_partitions();    // ... and whether, and which, partitions to read
    void follow_consumers();     // ... and whether the port's consumers are looked at

    models::DashboardModels models_;
    client::SnapshotFeed* feed_;
    FindingsPanel* findings_;
    QTabWidget* tabs_;
    FabricPanel* fabric_;
    CountersPanel* counters_;
    FilteredTable* events_;
    MrPanel* mrs_;
    PartitionsPanel* partitions_;
    QLabel* connection_;
    QLabel* snapshot_info_;
};

}  // namespace rdmadiag::gui::widgets
