#pragma once
// The snapshot as JSON: what `--json` prints, what /api/v1/snapshot serves and what the GUI and
// `--remote` read back. The layout is versioned (kSnapshotJsonVersion) and documented in
// docs/json.md.

#include <string_view>

#include "collector/common/result.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag {

void to_json(codec::Json& j, const PortSnapshot& v);
void from_json(const codec::Json& j, PortSnapshot& v);
void to_json(codec::Json& j, const DeviceSnapshot& v);
void from_json(const codec::Json& j, DeviceSnapshot& v);
void to_json(codec::Json& j, const SourceSnapshot& v);
void from_json(const codec::Json& j, SourceSnapshot& v);
void to_json(codec::Json& j, const EventRecord& v);
void from_json(const codec::Json& j, EventRecord& v);
void to_json(codec::Json& j, const ErrorRecord& v);
void from_json(const codec::Json& j, ErrorRecord& v);
void to_json(codec::Json& j, const SectionRevisions& v);
void from_json(const codec::Json& j, SectionRevisions& v);

}  // namespace rdmadiag

namespace rdmadiag::codec {

constexpr int kSnapshotJsonVersion = 1;

codec::Json snapshot_to_json(const Snapshot& snapshot);

// Never throws: malformed or mismatched input is an Error saying where it went wrong.
Result<Snapshot> snapshot_from_json(const codec::Json& j);

Result<Snapshot> parse_snapshot_json(std::string_view text);

}  // namespace rdmadiag::codec
