#include "collector/replay/recorder.hpp"

#include "collector/json/observation_json.hpp"

namespace rdmadiag {

Recorder::Recorder(std::ostream& out, const RecordingHeader& header, ObservationSink* next)
    : out_(out), next_(next) {
    out_ << recording_header_line(header) << '\n';
}

void Recorder::emit(Observation obs) {
    if (out_.good()) {
        out_ << observation_to_line(obs) << '\n';
        if (out_.good()) ++written_;
    }
    if (next_) next_->emit(std::move(obs));
}

void Recorder::flush() {
    out_.flush();
}

}  // namespace rdmadiag
