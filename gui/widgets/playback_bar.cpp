#include "gui/widgets/playback_bar.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include "gui/client/playback_feed.hpp"

namespace rdmadiag::gui::widgets {

PlaybackBar::PlaybackBar(client::PlaybackFeed* feed, QWidget* parent)
    : QWidget(parent),
      feed_(feed),
      play_(new QToolButton(this)),
      speed_(new QComboBox(this)),
      slider_(new QSlider(Qt::Horizontal, this)),
      time_(new QLabel(this)) {
    play_->setToolTip(tr("Play / pause (Space)"));
    play_->setShortcut(Qt::Key_Space);
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    connect(play_, &QToolButton::clicked, this, [this] {
        if (feed_->playing()) {
            feed_->pause();
        } else {
            feed_->play();
        }
    });
    connect(feed_, &client::PlaybackFeed::playingChanged, this, [this](bool playing) {
        play_->setIcon(
            style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    });
    for (double s : {0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0}) {
        speed_->addItem(QStringLiteral("%1x").arg(s), s);
        if (s == feed_->speed()) speed_->setCurrentIndex(speed_->count() - 1);
    }
    speed_->setToolTip(tr("Playback speed"));
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this](int) { feed_->set_speed(speed_->currentData().toDouble()); });
    slider_->setToolTip(tr("Position in the scenario or recording"));
    slider_->setPageStep(10000);
    slider_->setSingleStep(1000);
    connect(slider_, &QSlider::sliderMoved, this,
            [this](int ms) { feed_->seek(std::chrono::milliseconds(ms)); });
    connect(slider_, &QSlider::actionTriggered, this, [this](int action) {
        if (action == QAbstractSlider::SliderMove) return;
        feed_->seek(std::chrono::milliseconds(slider_->sliderPosition()));
    });
    connect(feed_, &client::PlaybackFeed::positionChanged, this, &PlaybackBar::on_position);
    time_->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0000s / 0000s")));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(play_);
    layout->addWidget(speed_);
    layout->addWidget(slider_, 1);
    layout->addWidget(time_);
}

void PlaybackBar::on_position(qint64 position_ms, qint64 length_ms) {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, static_cast<int>(length_ms));
    if (!slider_->isSliderDown()) slider_->setValue(static_cast<int>(position_ms));
    time_->setText(QStringLiteral("%1s / %2s").arg(position_ms / 1000).arg(length_ms / 1000));
}

}  // namespace rdmadiag::gui::widgets
