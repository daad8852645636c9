#pragma once
// The snapshot as JSON: what `--json` prints, what /api/v1/snapshot serves and what the GUI and
// `--remote` read back. The layout is versioned (kSnapshotJsonVersion) and documented in
// docs/json.md.

#include <nlohmann/json.hpp>
#include <string_view>

#include "collector/model/result.hpp"
#include "collector/model/snapshot.hpp"

namespace rdmadiag {

constexpr int kSnapshotJsonVersion = 1;

void to_json(nlohmann::json& j, const PortSnapshot& v);
void from_json(const nlohmann::json& j, PortSnapshot& v);
void to_json(nlohmann::json& j, const DeviceSnapshot& v);
void from_json(const nlohmann::json& j, DeviceSnapshot& v);
void to_json(nlohmann::json& j, const SourceSnapshot& v);
void from_json(const nlohmann::json& j, SourceSnapshot& v);
void to_json(nlohmann::json& j, const EventRecord& v);
void from_json(const nlohmann::json& j, EventRecord& v);
void to_json(nlohmann::json& j, const ErrorRecord& v);
void from_json(const nlohmann::json& j, ErrorRecord& v);

nlohmann::json snapshot_to_json(const Snapshot& snapshot);
// Never throws: malformed or mismatched input is an Error saying where it went wrong.
Result<Snapshot> snapshot_from_json(const nlohmann::json& j);
Result<Snapshot> parse_snapshot_json(std::string_view text);

}  // namespace rdmadiag
