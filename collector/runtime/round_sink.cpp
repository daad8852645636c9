#include "collector/runtime/round_sink.hpp"

#include <algorithm>

namespace rdmadiag::runtime {

void RoundSink::emit(Observation obs) {
    batch_.push_back(std::move(obs));
    ++emitted_;
    if (batch_.size() >= limit_) flush();
}

void RoundSink::flush() {
    if (batch_.empty()) return;
    std::stable_sort(batch_.begin(), batch_.end(),
                     [](const Observation& a, const Observation& b) { return a.time < b.time; });
    feed_(batch_);
    batch_.clear();
}

}  // namespace rdmadiag::runtime
