#include "collector/sources/mad/mad_batch.hpp"

namespace rdmadiag::mad {

void MadBatch::add(MadRequest req, Handler handler) {
    requests_.push_back(std::move(req));
    handlers_.push_back(std::move(handler));
}

void MadBatch::run(MadEngine& engine) {
    if (requests_.empty()) return;
    engine.run(requests_, [this](size_t index, MadOutcome outcome) {
        Handler handler = std::move(handlers_[index]);
        handler(std::move(outcome.response));
    });
    requests_.clear();
    handlers_.clear();
}

}  // namespace rdmadiag::mad
