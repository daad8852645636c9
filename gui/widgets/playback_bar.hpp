#pragma once
// Play/pause, speed and a time slider for offline playback.

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace rdmadiag::gui::client {
class PlaybackFeed;
}  // namespace rdmadiag::gui::client

namespace rdmadiag::gui::widgets {

class PlaybackBar final : public QWidget {
    Q_OBJECT
public:
    PlaybackBar(client::PlaybackFeed* feed, QWidget* parent = nullptr);

    QSlider* slider() const { return slider_; }

private:
    void on_position(qint64 position_ms, qint64 length_ms);

    client::PlaybackFeed* feed_;
    QToolButton* play_;
    QComboBox* speed_;
    QSlider* slider_;
    QLabel* time_;
};

}  // namespace rdmadiag::gui::widgets
