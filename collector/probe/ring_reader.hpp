#pragma once
// The collector's view of one probe ring: a shared mapping the producer can scribble on at any
// time. Everything is copied out before it is checked; the ring's geometry is read once, at
// mapping; our read position is our own (the one in shared memory is only published for the
// producer). A ring that claims more unread records than it can hold is corrupt.

#include <cstddef>
#include <cstdint>
#include <functional>

#include "collector/common/result.hpp"
#include "collector/probe/include/rdmadiag_probe_layout.h"

namespace rdmadiag::probe {

struct RingDrain {
    size_t valid = 0;
    size_t invalid = 0;
    bool corrupt = false;  // head behind our position or more than a ring ahead
    bool closed = false;   // the producer's thread exited
    bool more = false;     // stopped at the per-drain bound with records left
};

class RingReader {
public:
    // Maps a memfd handed over by a probe. It must be sealed against shrinking (or the producer
    // could make our reads fault), no larger than `max_bytes`, and hold a sane header. A ring
    // that already lies about its contents fails with code EBADMSG: hostile, not a mistake.
    static Result<RingReader> map(int fd, size_t max_bytes);

    RingReader(RingReader&& other) noexcept;
    RingReader& operator=(RingReader&& other) noexcept;
    RingReader(const RingReader&) = delete;
    RingReader& operator=(const RingReader&) = delete;
    ~RingReader();

    // Asks the producer to ring the doorbell for its next failed report, or when the ring is half
    // full: called before a drain, so a record published while the flag was clear is in it.
    void arm();
    // Hands at most `max` valid records (copied) to `on_record`, in ring order.
    RingDrain drain(size_t max, const std::function<void(const rdmadiag_probe_record&)>& on_record);

    uint32_t clock() const { return clock_; }
    uint32_t tid() const { return tid_; }
    uint64_t producer_dropped() const;
    size_t bytes() const { return bytes_; }

private:
    RingReader(void* base, size_t bytes, uint32_t capacity, uint32_t clock, uint32_t tid);

    void* base_ = nullptr;
    size_t bytes_ = 0;
    uint32_t capacity_ = 0;
    uint32_t clock_ = 0;
    uint32_t tid_ = 0;
    uint64_t tail_ = 0;
};

// Whether a copied record is one the probe could have written at ring position `pos`.
bool valid_probe_record(const rdmadiag_probe_record& r, uint64_t pos);

}  // namespace rdmadiag::probe
