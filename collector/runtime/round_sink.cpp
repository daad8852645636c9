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
    auto by_time = [](const Observation& a, const Observation& b) { return a.time < b.time; };
    // A poll's observations share its time, so a batch is nearly always in order already; a
    // stable sort would still take a buffer the size of the batch.
    if (!std::is_sorted(batch_.begin(), batch_.end(), by_time)) {
        std::stable_sort(batch_.begin(), batch_.end(), by_time);
    }
    feed_(batch_);
    batch_.clear();
}

}  // namespace rdmadiag::runtime
