#pragma once
// What one probe client can make the collector hold or do, and what the collector counts of its
// clients. Every bound is per client unless it says otherwise.

#include <cstddef>
#include <cstdint>

namespace rdmadiag::probe {

struct ProbeLimits {
    size_t max_clients = 64;  // in all
    size_t max_rings_per_client = 64;
    size_t max_ring_bytes = 1 << 20;
    size_t max_records_per_poll = 1 << 16;
    size_t max_invalid_records = 64;  // before it is cut off
    size_t max_bad_messages = 4;
    // Between two polls (a second apart): ring and device messages and doorbells together.
    size_t max_messages = 1024;
    // Doorbells a client's rings are armed for between two polls; beyond them its records wait
    // for the next poll. Below max_messages with room for a ring and device message each, so a
    // client that rings only when armed is never cut off for it.
    size_t max_doorbells = 256;
};

struct ProbeStats {
    uint64_t accepted = 0;
    uint64_t refused = 0;       // over max_clients
    uint64_t disconnected = 0;  // closed by the client (or crashed)
    uint64_t cut_off = 0;       // disconnected by us for misbehaving
    uint64_t records = 0;
    uint64_t invalid_records = 0;
    uint64_t rings = 0;
    uint64_t bad_messages = 0;
    uint64_t throttled = 0;  // polls that left records for the next one
    uint64_t doorbells = 0;  // drains a client asked for
};

}  // namespace rdmadiag::probe
