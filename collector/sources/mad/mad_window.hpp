#pragma once
// How many MADs may be outstanding to one target (or in all): additive increase, multiplicative
// decrease, as TCP does for the same reason. A switch's SMA queues only a few MADs and drops the
// rest (its VL15Dropped counter rises); a slow SMA answers late. Both look the same from here: an
// attempt that is lost. The window shrinks to 0.7 of itself on such a loss and grows again by one
// MAD per window's worth of answers, so it saw-tooths just under what the target can take, and a
// healthy target is driven up to the ceiling (`mad.concurrency` per target, `mad.in_flight` in
// all). 0.7 rather than TCP Reno's 0.5 (CUBIC's factor, RFC 8312): the loss here is one SMA's
// fixed-size queue overflowing, not a buffer shared with unknown other senders, so a gentler cut
// keeps the target busier at no risk to anyone else. Once a loss was seen, the window grows
// back quickly to just under the size that overflowed and then probes past it eight times more
// slowly (CUBIC's plateau, in its simplest form): a switch whose queue holds N MADs is kept
// near N with a drop every few dozen answers, not every few.
//
// Losses of one burst are one congestion event: only an attempt sent after the last cut can cut
// again (attempts carry the engine's send serial), so a window of N dropped MADs is cut once, not
// N times. Below the slow-start threshold the window doubles per round trip (one per answer),
// so a fresh target reaches its ceiling in a few round trips instead of a few dozen.

#include <algorithm>
#include <cstdint>

namespace rdmadiag::mad {

class MadWindow {
public:
    static constexpr double kDecrease = 0.7;
    static constexpr double kPlateau = 8.0;  // growth is this much slower near the last loss

    MadWindow(unsigned ceiling, unsigned initial)
        : ceiling_(std::max(1u, ceiling)),
          window_(std::clamp<double>(initial, 1.0, ceiling_)),
          threshold_(ceiling_) {}

    // Outstanding MADs allowed now: at least one, so every target keeps making progress.
    unsigned limit() const { return static_cast<unsigned>(window_); }
    unsigned ceiling() const { return ceiling_; }
    double value() const { return window_; }

    void on_answer() {
        if (window_ < threshold_) {
            window_ += 1.0;
        } else if (window_ + 1.0 < lost_at_) {
            window_ += 1.0 / window_;
        } else {
            // Near the size that overflowed last time: probe past it slowly, so a target that
            // cannot take more sees a drop now and then rather than every few round trips.
            window_ += 1.0 / (kPlateau * window_);
        }
        window_ = std::min<double>(window_, ceiling_);
    }

    // An attempt sent with serial `sent_serial` was lost; `now_serial` is the next send's
    // serial. Returns whether the window was cut.
    bool on_loss(uint64_t sent_serial, uint64_t now_serial) {
        if (sent_serial < cut_serial_) return false;  // same congestion event as the last cut
        lost_at_ = window_;
        window_ = std::max(1.0, window_ * kDecrease);
        threshold_ = window_;
        cut_serial_ = now_serial;
        return true;
    }

private:
    unsigned ceiling_;
    double window_;
    double threshold_;
    double lost_at_ = 1e9;  // the window when the last loss was seen
    uint64_t cut_serial_ = 0;
};

}  // namespace rdmadiag::mad
