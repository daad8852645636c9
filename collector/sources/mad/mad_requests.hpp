#pragma once
// One sweep MAD as the engine takes it: an SMP Get along a route, a PMA Get of one port, an SA
// query; and the checks every answer goes through before its attribute data is read. Each error
// names the step it came from ("PortInfo: ..."), so a port's errors read on their own.

#include <cstdint>
#include <string>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_engine.hpp"
#include "collector/sources/mad/subnet_reading.hpp"

namespace rdmadiag::mad {

// SMP Get of `attr_id` along `route`: directed route from the local port, or LID routed.
MadRequest smp_request(const Route& route, uint16_t attr_id, uint32_t attr_mod);
// PMA Get of `attr_id` for one port of the node at `lid`.
MadRequest pma_request(uint16_t lid, uint16_t attr_id, uint8_t port_select);
// SA query to the SM at `sm_lid`, with a component mask and a template record.
MadRequest sa_request(uint16_t sm_lid, Method method, uint16_t attr_id, uint64_t mask, Bytes templ,
                      uint64_t sm_key);

// The answer's bytes when it came back and is a successful response; otherwise the error, with
// `what` in front.
Result<std::vector<uint8_t>> checked_answer(Result<std::vector<uint8_t>> answer,
                                            const std::string& what);

// The attribute data of a checked SMP answer. The span points into `answer`: keep the answer
// alive while it is used (a temporary is refused for that reason).
Result<Bytes> smp_payload(const Result<std::vector<uint8_t>>& answer);
Result<Bytes> smp_payload(Result<std::vector<uint8_t>>&& answer) = delete;

}  // namespace rdmadiag::mad
