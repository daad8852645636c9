#pragma once
// A batch of MADs and what to do with each answer. run() hands them all to the engine at once,
// so every MAD of a sweep round is in flight together, and calls each handler as its answer
// comes: a handler may rely on the ones added before it *for the same target* having run (a
// port's PortCountersExtended after its PortCounters), not on other targets'. Handlers and
// answers are released as they are used, so a batch holds its requests and little more.

#include <deque>
#include <functional>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_engine.hpp"

namespace rdmadiag::mad {

class MadBatch {
public:
    using Answer = Result<std::vector<uint8_t>>;
    using Handler = std::function<void(Answer)>;

    void add(MadRequest req, Handler handler);
    // Sends everything added since the last run and hands each answer (or error) to its handler.
    void run(MadEngine& engine);

    const std::deque<MadRequest>& requests() const { return requests_; }

private:
    // Deques: a round of a large subnet holds hundreds of thousands of requests, and a vector's
    // growth would briefly hold them twice.
    std::deque<MadRequest> requests_;
    std::deque<Handler> handlers_;
};

}  // namespace rdmadiag::mad
