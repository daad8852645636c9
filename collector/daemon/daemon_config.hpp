#pragma once
// Everything `rdmadiag serve` can be told, from flags or from a config file (YAML, same names as
// the flags, grouped: web:, log:, path:, devices:, intervals:, sources:, source-options:, and a
// section per source for its options, such as partitions:). Flags win over the file.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/log.hpp"
#include "collector/common/result.hpp"
#include "collector/common/simple_yaml.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/runtime/collector_settings.hpp"

namespace rdmadiag::daemon {

// Not 9100 (node_exporter), 9315 / 9683 (InfiniBand exporters) or 9879 (rdma_exporter).
constexpr int kDefaultPort = 9857;

// Upper bounds of the web settings: each is a thread, a buffer or a descriptor, and a value past
// them is a typo, not a plan.
constexpr size_t kMaxWebConnections = 1024;
constexpr size_t kMaxWebRequestBytes = 1 << 20;
constexpr size_t kMaxWebPendingConnections = 65536;

struct WebSettings {
    std::string listen_address = ":" + std::to_string(kDefaultPort);
    std::string config_file;  // exporter-toolkit web config (TLS, basic auth)
    // Requests served at once, each on a worker thread of its own. Prometheus scrapes one at a
    // time per server: a few workers serve it and the API, and idle ones cost memory.
    size_t max_connections = 4;
    Duration request_timeout = std::chrono::seconds(10);
    size_t max_request_bytes = 8192;       // request line and headers; bodies are refused
    size_t max_pending_connections = 512;  // clients still sending their request head
};

struct DaemonConfig {
    WebSettings web;
    // /metrics detail: false keeps a subnet-wide collector within about 32 series per port (the
    // exporter's "standard"); true exports every series ("full"). docs/metrics.md has the list.
    bool metrics_full_detail = false;
    common::LogLevel log_level = common::LogLevel::info;
    common::LogFormat log_format = common::LogFormat::logfmt;
    // What every subcommand shares (paths, devices, intervals, sources, --simulate): the file's
    // path:, devices:, intervals:, sources:, source-options:, the sources' sections (partitions:)
    // and simulate: fill it.
    runtime::CollectorSettings collector;
    // The engine's thresholds the file may change (its mr: section).
    engine::EngineSettings engine;
    std::string config_file;  // where the file settings came from
};

// Applies a parsed config file over `config`. Unknown keys are errors, so typos do not pass.
// Source options come from source-options: (KEY: VALUE) and from a section named after their
// source (partitions: sm-port-guid: is partitions.sm_port_guid). With a registry each is checked
// against its source's declaration, and an error names its line; without one they are taken as
// written, for sources::resolve_source_options() to check.
Result<void> apply_config_yaml(const common::YamlNode& root, DaemonConfig& config,
                               const sources::SourceRegistry* registry = nullptr);
Result<void> apply_config_text(std::string_view text, DaemonConfig& config,
                               const sources::SourceRegistry* registry = nullptr);
Result<void> apply_config_file(const std::string& path, DaemonConfig& config,
                               const sources::SourceRegistry* registry = nullptr);

}  // namespace rdmadiag::daemon
