#include "collector/replay/recorder.hpp"

#include <cerrno>

#include "collector/json/observation_json.hpp"

namespace rdmadiag::replay {

Recorder::Recorder(std::ostream& out, const RecordingHeader& header, sources::ObservationSink* next)
    : out_(out), next_(next) {
    out_ << recording_header_line(header) << '\n';
}

void Recorder::emit(Observation obs) {
    if (out_.good()) {
        errno = 0;
        out_ << codec::observation_to_line(obs) << '\n';
        if (out_.good()) {
            ++written_;
        } else if (error_ == 0) {
            error_ = errno != 0 ? errno : EIO;
        }
    }
    if (next_) next_->emit(std::move(obs));
}

void Recorder::flush() {
    if (!out_.good()) return;
    errno = 0;
    out_.flush();
    if (!out_.good() && error_ == 0) error_ = errno != 0 ? errno : EIO;
}

}  // namespace rdmadiag::replay
