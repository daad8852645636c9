#pragma once
// Plays a Timeline at a chosen speed on a UI timer: play, pause, speed, seek. Each tick moves
// the position by the wall time elapsed times the speed and delivers the snapshot there.

#include <QTimer>
#include <memory>

#include "gui/client/snapshot_feed.hpp"
#include "gui/client/timeline.hpp"

namespace rdmadiag::gui::client {

class PlaybackFeed final : public SnapshotFeed {
    Q_OBJECT
public:
    explicit PlaybackFeed(std::unique_ptr<Timeline> timeline, QObject* parent = nullptr);

    void start() override;  // delivers the snapshot at the current position and starts playing
    QString description() const override;

    void play();
    void pause();
    void set_speed(double speed);
    void seek(Duration offset);
    // Moves to `offset` delivering a snapshot every `step` on the way, so history (counter
    // charts, last P_Key changes) builds up as if it had been played.
    void fast_forward(Duration offset, Duration step = std::chrono::seconds(1));
    void set_tick(std::chrono::milliseconds tick) { tick_ = tick; }

    bool playing() const { return timer_.isActive(); }
    double speed() const { return speed_; }
    Duration position() const { return position_; }
    Duration length() const { return timeline_->length(); }

Q_SIGNALS:
    void positionChanged(qint64 position_ms, qint64 length_ms);
    void playingChanged(bool playing);

private:
    void tick();
    void deliver();
    void update_status();

    std::unique_ptr<Timeline> timeline_;
    QTimer timer_;
    std::chrono::milliseconds tick_{250};
    double speed_ = 1.0;
    Duration position_{};
};

}  // namespace rdmadiag::gui::client
