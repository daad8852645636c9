#pragma once
// The "partitions" source: the subnet manager's partition configuration (opensm's
// partitions.conf), handed to the engine as text; the engine parses it and judges the ports' P_Key
// tables against it (collector/engine/partitions/).
//
// Options (partitions_options.cpp): partitions.conf = FILE, and partitions.sm_port_guid = GUID,
// the SM's port, whom the file's SELF names. The file is looked at every P_Key interval: its size,
// modification time and inode, one stat(); it is read again only when one of them changed, and
// when the source is built again (a reload). A file that cannot be read makes the source down with
// the reason, and the engine keeps the intent it read last.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "collector/sources/source.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::partitions_conf {

constexpr std::string_view kSourceName = "partitions";
constexpr const char* kConfOption = "partitions.conf";
constexpr const char* kSmPortGuidOption = "partitions.sm_port_guid";
// opensm's own files are kilobytes; one naming every port of a large subnet is a few megabytes.
constexpr size_t kMaxConfBytes = 64 << 20;

// What tells one version of the file from the next without reading it.
struct FileStamp {
    uint64_t device = 0;
    uint64_t inode = 0;
    int64_t size = 0;
    int64_t mtime_ns = 0;
    bool operator==(const FileStamp&) const = default;
};

class PartitionsConfSource final : public sources::Source {
public:
    PartitionsConfSource(std::string path, std::optional<uint64_t> sm_port_guid, Duration interval);

    std::string_view name() const override { return kSourceName; }
    sources::Availability availability() const override { return {true, ""}; }
    Duration poll_interval() const override { return interval_; }
    void poll(TimePoint now, sources::ObservationSink& sink) override;
    // A file has no timeline of its own: it never makes a playback longer, and never keeps a
    // scenario from being played to its end.
    std::optional<Duration> playback_length() const override { return Duration::zero(); }

    // How many times the file was read (not merely looked at).
    uint64_t reads() const { return reads_; }

private:
    void fail(TimePoint now, sources::ObservationSink& sink, std::string reason);

    std::string path_;
    std::optional<uint64_t> sm_port_guid_;
    Duration interval_;
    std::optional<FileStamp> read_stamp_;  // of the version last handed to the engine
    std::optional<std::string> failure_;   // the reason the source is down, while it is
    uint64_t reads_ = 0;
};

// The source built from settings: partitions.conf is required.
Result<std::unique_ptr<sources::Source>> make_partitions_conf_source(
    const sources::SourceSettings& settings);
sources::SourceEntry partitions_source_entry();

}  // namespace rdmadiag::partitions_conf
