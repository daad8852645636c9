#pragma once
// A batch of MADs and what to do with each answer. run() hands them all to the engine at once,
// so every MAD of a sweep round is in flight together, then calls each handler in the order the
// requests were added: a handler may rely on the ones added before it having run.

#include <functional>
#include <vector>

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

    const std::vector<MadRequest>& requests() const { return requests_; }

private:
    std::vector<MadRequest> requests_;
    std::vector<Handler> handlers_;
};

}  // namespace rdmadiag::mad
