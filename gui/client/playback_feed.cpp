#include "gui/client/playback_feed.hpp"

#include <algorithm>

namespace rdmadiag::gui::client {

namespace {
qint64 to_ms(Duration d) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}
}  // namespace

PlaybackFeed::PlaybackFeed(std::unique_ptr<Timeline> timeline, QObject* parent)
    : SnapshotFeed(parent), timeline_(std::move(timeline)) {
    connect(&timer_, &QTimer::timeout, this, &PlaybackFeed::tick);
}

QString PlaybackFeed::description() const {
    return QString::fromStdString(timeline_->description());
}

void PlaybackFeed::start() {
    deliver();
    play();
}

void PlaybackFeed::play() {
    if (timer_.isActive()) return;
    if (position_ >= timeline_->length()) position_ = Duration::zero();
    timer_.start(tick_);
    update_status();
    Q_EMIT playingChanged(true);
}

void PlaybackFeed::pause() {
    if (!timer_.isActive()) return;
    timer_.stop();
    update_status();
    Q_EMIT playingChanged(false);
}

void PlaybackFeed::set_speed(double speed) {
    speed_ = std::clamp(speed, 0.1, 1000.0);
    update_status();
}

void PlaybackFeed::seek(Duration offset) {
    position_ = std::clamp(offset, Duration::zero(), timeline_->length());
    deliver();
}

void PlaybackFeed::fast_forward(Duration offset, Duration step) {
    offset = std::clamp(offset, Duration::zero(), timeline_->length());
    if (step <= Duration::zero()) step = std::chrono::seconds(1);
    if (offset < position_) position_ = Duration::zero();
    for (auto t = position_ + step; t < offset; t += step) {
        position_ = t;
        if (auto snap = timeline_->seek(t)) Q_EMIT snapshotReady(std::move(snap));
    }
    seek(offset);
}

void PlaybackFeed::tick() {
    const auto step = std::chrono::duration_cast<Duration>(
        std::chrono::duration<double, std::milli>(static_cast<double>(tick_.count()) * speed_));
    position_ = std::min(position_ + step, timeline_->length());
    deliver();
    if (position_ >= timeline_->length()) pause();
}

void PlaybackFeed::deliver() {
    auto snap = timeline_->seek(position_);
    update_status();
    Q_EMIT positionChanged(to_ms(position_), to_ms(timeline_->length()));
    if (snap) Q_EMIT snapshotReady(std::move(snap));
}

void PlaybackFeed::update_status() {
    const auto pos = std::chrono::duration_cast<std::chrono::seconds>(position_);
    const auto len = std::chrono::duration_cast<std::chrono::seconds>(timeline_->length());
    set_status(FeedHealth::ok, QStringLiteral("Offline: %1, %2 at %3 s of %4 s, speed %5x")
                                   .arg(description(), timer_.isActive() ? QStringLiteral("playing")
                                                                         : QStringLiteral("paused"))
                                   .arg(pos.count())
                                   .arg(len.count())
                                   .arg(speed_));
}

}  // namespace rdmadiag::gui::client
