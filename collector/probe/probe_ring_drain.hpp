#pragma once
// Turning what a client's rings hold into MR events: each record becomes an MrEvent owned by
// the client's process, dated by its stamp. A drain hands on at most max_records_per_poll valid
// records per client; the rest waits in the client's rings for the next poll. A ring that claims
// more than it holds, or more invalid records than the bound, gets the client cut off.

#include <map>
#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/probe/include/rdmadiag_probe_layout.h"
#include "collector/probe/probe_client.hpp"
#include "collector/probe/probe_clocks.hpp"
#include "collector/probe/probe_limits.hpp"
#include "collector/sources/source.hpp"

namespace rdmadiag::probe {

// The MR event a record tells of, not yet dated; nullopt for a record about no MR (a failed
// ordinary completion). An error for a record that names a device the client never named.
Result<std::optional<MrEvent>> mr_event_of(const rdmadiag_probe_record& r,
                                           const std::map<uint8_t, std::string>& devices,
                                           const MrOwner& owner);

// Drains every ring of the client into `sink`, emptied rings of exited threads dropped; each ring
// is armed for the doorbell first while the client has doorbells left (ProbeLimits::
// max_doorbells). An error, the reason, when the client must be cut off.
Result<void> drain_probe_client(ProbeClient& c, const ProbeLimits& limits,
                                const ProbeClockCalibration& clocks, TimePoint now,
                                sources::ObservationSink& sink, ProbeStats& stats);

}  // namespace rdmadiag::probe
