#pragma once
// Writes observations to a recording as they pass: the header first, then one line each. It is an
// ObservationSink that can forward to another sink, so the collector records exactly what the
// engine consumes.

#include <ostream>

#include "collector/replay/recording_format.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::replay {

class Recorder final : public sources::ObservationSink {
public:
    // Writes the header at once. `next` (may be null) receives every observation after it is
    // written.
    Recorder(std::ostream& out, const RecordingHeader& header,
             sources::ObservationSink* next = nullptr);

    void emit(Observation obs) override;
    void flush();

    uint64_t written() const { return written_; }
    // False once the stream failed (disk full, closed pipe); later observations still reach
    // `next`.
    bool good() const { return out_.good(); }
    // errno when the stream first failed (ENOSPC, EFBIG, ...), 0 while it is good.
    int error() const { return error_; }

private:
    std::ostream& out_;
    sources::ObservationSink* next_;
    uint64_t written_ = 0;
    int error_ = 0;
};

}  // namespace rdmadiag::replay
