#pragma once
// A transport that answers every MAD at once from a function of its request bytes (nullopt: the
// MAD is lost), with a manual clock so that a lost MAD times out without sleeping. Enough for
// tests of what one batch sends and what its handlers make of the answers.

#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "collector/sources/mad/mad_engine.hpp"

namespace rdmadiag::mad::test {

class AnsweringTransport final : public MadTransport {
public:
    // The attribute data of the answer (copied after the 64-byte header), or nullopt.
    std::function<std::optional<std::vector<uint8_t>>(Bytes request)> answer = [](Bytes) {
        return std::optional<std::vector<uint8_t>>(std::vector<uint8_t>{});
    };
    std::chrono::steady_clock::time_point now{};
    std::vector<std::vector<uint8_t>> sent;
    std::vector<MadAddress> sent_to;

    Result<void> send(Agent agent, Bytes mad, const MadAddress& addr, int) override {
        sent.emplace_back(mad.begin(), mad.end());
        sent_to.push_back(addr);
        auto data = answer(mad);
        if (!data) return {};
        std::vector<uint8_t> reply(mad.begin(), mad.end());
        reply[3] = static_cast<uint8_t>(reply[3] | 0x80);  // GetResp
        std::copy(data->begin(), data->end(), reply.begin() + 64);
        queue_.push_back({agent, 0, std::move(reply)});
        return {};
    }
    Result<std::optional<ReceivedMad>> receive(std::chrono::milliseconds timeout) override {
        if (queue_.empty()) {
            now += timeout;
            return std::optional<ReceivedMad>{};
        }
        ReceivedMad m = std::move(queue_.front());
        queue_.pop_front();
        return std::optional<ReceivedMad>{std::move(m)};
    }

private:
    std::deque<ReceivedMad> queue_;
};

// An engine on `t` that gives up on a lost MAD after one attempt.
inline MadEngine engine_on(AnsweringTransport& t) {
    return MadEngine(t, MadEngineOptions{.retries = 0}, [&t] { return t.now; });
}

}  // namespace rdmadiag::mad::test
