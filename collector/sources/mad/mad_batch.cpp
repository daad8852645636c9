#include "collector/sources/mad/mad_batch.hpp"

namespace rdmadiag::mad {

void MadBatch::add(MadRequest req, Handler handler) {
    requests_.push_back(std::move(req));
    handlers_.push_back(std::move(handler));
}

void MadBatch::run(MadEngine& engine) {
    if (requests_.empty()) return;
    auto outcomes = engine.run(std::move(requests_));
    for (size_t i = 0; i < outcomes.size(); ++i) handlers_[i](std::move(outcomes[i].response));
    requests_.clear();
    handlers_.clear();
}

}  // namespace rdmadiag::mad
