#pragma once
// InformInfo (IBA 13.4.8.3): a subscription to traps, sent to the SA with SubnAdmSet. 36 bytes:
// GID, LIDRangeBegin/End, IsGeneric, Subscribe, Type, TrapNumber, QPN and RespTimeValue,
// ProducerType. The SA answers with the InformInfo it stored (GetResp), or an error status; from
// then on it forwards every matching trap to the requester's address as a Report(Notice).

#include <cstdint>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_bytes.hpp"
#include "collector/sources/mad/mad_engine.hpp"

namespace rdmadiag::mad {

constexpr size_t kInformInfoSize = 36;

struct InformInfo {
    uint16_t lid_range_begin = 0xffff;  // 0xffff: every port the SM manages
    uint16_t lid_range_end = 0;
    bool generic = true;
    bool subscribe = true;
    uint16_t type = 0xffff;  // 0xffff: any
    uint16_t trap_number = 0;
    uint32_t qpn = 1;                   // where Reports go: the GSI
    uint8_t resp_time_value = 18;       // 4.096 us * 2^18, about a second to answer a Report
    uint32_t producer_type = 0xffffff;  // 0xffffff: any
    bool operator==(const InformInfo&) const = default;
};

std::vector<uint8_t> encode_inform_info(const InformInfo& info);
Result<InformInfo> decode_inform_info(Bytes record);

// SubnAdmSet(InformInfo) to the SA at `sm_lid`, subscribing to (or, with subscribe=false,
// cancelling) one generic trap for every port, answered with Reports to this port's GSI.
// The same record cancels what it subscribed: opensm matches subscriptions field by field.
MadRequest inform_info_request(uint16_t sm_lid, uint16_t trap_number, bool subscribe,
                               uint64_t sm_key);

}  // namespace rdmadiag::mad
