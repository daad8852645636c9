#include "collector/daemon/daemon_config.hpp"

#include <algorithm>

#include "collector/common/parse_number.hpp"
#include "collector/common/text_file.hpp"

namespace rdmadiag::daemon {

namespace {

Error at(const common::YamlNode& n, std::string what) {
    return make_error("line " + std::to_string(n.line) + ": " + std::move(what));
}

Result<std::string> as_string(const common::YamlNode& n, std::string_view key) {
    if (!n.is_scalar()) return at(n, std::string(key) + " must be a single value");
    return n.scalar;
}

Result<bool> as_bool(const common::YamlNode& n, std::string_view key) {
    if (n.is_scalar()) {
        if (n.scalar == "true" || n.scalar == "yes" || n.scalar == "on") return true;
        if (n.scalar == "false" || n.scalar == "no" || n.scalar == "off") return false;
    }
    return at(n, std::string(key) + " must be true or false");
}

Result<size_t> as_size(const common::YamlNode& n, std::string_view key, size_t max) {
    if (n.is_scalar()) {
        const auto v = common::parse_number<size_t>(n.scalar);
        if (v && *v > 0 && *v <= max) return *v;
    }
    return at(
        n, std::string(key) + " must be a positive whole number, at most " + std::to_string(max));
}

Result<Duration> as_duration(const common::YamlNode& n, std::string_view key) {
    if (n.is_scalar()) {
        auto d = parse_duration(n.scalar);
        if (d && *d > Duration::zero()) return *d;
    }
    return at(n, std::string(key) + " must be a duration such as 500ms, 10s or 1m");
}

Result<std::vector<std::string>> as_list(const common::YamlNode& n, std::string_view key) {
    std::vector<std::string> out;
    if (n.is_list()) {
        for (const auto& item : n.list) {
            if (!item.is_scalar()) return at(item, std::string(key) + " items must be values");
            out.push_back(item.scalar);
        }
        return out;
    }
    if (n.is_scalar()) {  // "mlx5_*,rxe0"
        size_t start = 0;
        while (start <= n.scalar.size()) {
            size_t comma = n.scalar.find(',', start);
            if (comma == std::string::npos) comma = n.scalar.size();
            if (comma > start) out.push_back(n.scalar.substr(start, comma - start));
            start = comma + 1;
        }
        return out;
    }
    if (n.is_null()) return out;
    return at(n, std::string(key) + " must be a list");
}

template <class F>
Result<void> each_key(const common::YamlNode& section, std::string_view name, F&& f) {
    if (section.is_null()) return {};
    if (!section.is_map()) return at(section, std::string(name) + ": must be a mapping");
    for (const auto& [k, v] : section.map) {
        RDMADIAG_TRY(f(k, v));
    }
    return {};
}

Result<void> apply_web(const common::YamlNode& s, WebSettings& web) {
    return each_key(s, "web", [&](const std::string& k, const common::YamlNode& v) -> Result<void> {
        if (k == "listen-address")
            web.listen_address = RDMADIAG_TRY(as_string(v, k));
        else if (k == "config-file")
            web.config_file = RDMADIAG_TRY(as_string(v, k));
        else if (k == "max-connections")
            web.max_connections = RDMADIAG_TRY(as_size(v, k, kMaxWebConnections));
        else if (k == "request-timeout")
            web.request_timeout = RDMADIAG_TRY(as_duration(v, k));
        else if (k == "max-request-bytes")
            web.max_request_bytes = RDMADIAG_TRY(as_size(v, k, kMaxWebRequestBytes));
        else if (k == "max-pending-connections")
            web.max_pending_connections = RDMADIAG_TRY(as_size(v, k, kMaxWebPendingConnections));
        else
            return at(v, "unknown setting web." + k);
        return {};
    });
}

Result<void> apply_metrics(const common::YamlNode& s, DaemonConfig& c) {
    return each_key(s, "metrics",
                    [&](const std::string& k, const common::YamlNode& v) -> Result<void> {
                        if (k != "detail") return at(v, "unknown setting metrics." + k);
                        const std::string text = RDMADIAG_TRY(as_string(v, k));
                        if (text != "standard" && text != "full")
                            return at(v, "metrics.detail must be standard or full");
                        c.metrics_full_detail = text == "full";
                        return {};
                    });
}

Result<void> apply_log(const common::YamlNode& s, DaemonConfig& c) {
    return each_key(s, "log", [&](const std::string& k, const common::YamlNode& v) -> Result<void> {
        std::string text;
        text = RDMADIAG_TRY(as_string(v, k));
        if (k == "level") {
            auto l = common::parse_log_level(text);
            if (!l) return at(v, "log.level must be debug, info, warn or error");
            c.log_level = *l;
        } else if (k == "format") {
            auto f = common::parse_log_format(text);
            if (!f) return at(v, "log.format must be logfmt or json");
            c.log_format = *f;
        } else {
            return at(v, "unknown setting log." + k);
        }
        return {};
    });
}

Result<void> apply_paths(const common::YamlNode& s, sources::SourceSettings& src) {
    return each_key(s, "path",
                    [&](const std::string& k, const common::YamlNode& v) -> Result<void> {
                        if (k == "sysfs")
                            src.sysfs_root = RDMADIAG_TRY(as_string(v, k));
                        else if (k == "tracefs")
                            src.tracefs_root = RDMADIAG_TRY(as_string(v, k));
                        else if (k == "procfs")
                            src.procfs_root = RDMADIAG_TRY(as_string(v, k));
                        else
                            return at(v, "unknown setting path." + k);
                        return {};
                    });
}

// One source option from the file; with a registry, checked here so that the error names its line.
Result<void> set_option(const common::YamlNode& n, const std::string& key, DaemonConfig& c,
                        const sources::SourceRegistry* registry) {
    const std::string text = RDMADIAG_TRY(as_string(n, key));
    if (registry) {
        if (auto r = sources::check_source_option(*registry, key, text); !r)
            return at(n, r.error().message);
    }
    c.collector.sources.extra[key] = text;
    return {};
}

// A source's options under its own name, as the flags spell them without the source's prefix:
// "partitions:" "sm-port-guid:" is partitions.sm_port_guid.
Result<void> apply_source_section(const std::string& source, const common::YamlNode& s,
                                  DaemonConfig& c, const sources::SourceRegistry* registry) {
    return each_key(s, source,
                    [&](const std::string& k, const common::YamlNode& v) -> Result<void> {
                        std::string name = k;
                        std::replace(name.begin(), name.end(), '-', '_');
                        const std::string key = source + "." + name;
                        if (registry && !registry->find_option(key).spec)
                            return at(v, "unknown setting " + source + "." + k);
                        return set_option(v, key, c, registry);
                    });
}

// mr: the MR rules' thresholds (docs/findings-mr.md).
Result<void> apply_mr(const common::YamlNode& v, engine::EngineSettings& e) {
    return each_key(v, "mr", [&](const std::string& k, const common::YamlNode& n) -> Result<void> {
        const std::string key = "mr." + k;
        if (k == "unknown-threshold") {
            e.mr.unknown_threshold = RDMADIAG_TRY(as_duration(n, key));
        } else if (k == "teardown-timeout") {
            e.mr.teardown_timeout = RDMADIAG_TRY(as_duration(n, key));
        } else if (k == "leak-window") {
            e.mr_usage.leak_window = RDMADIAG_TRY(as_duration(n, key));
        } else if (k == "leak-min-mrs") {
            e.mr_usage.leak_min_mrs = RDMADIAG_TRY(as_size(n, key, 1'000'000'000));
        } else if (k == "leak-min-bytes") {
            e.mr_usage.leak_min_bytes = RDMADIAG_TRY(as_size(n, key, size_t{1} << 50));
        } else if (k == "top-processes") {
            e.mr_usage.top_processes = RDMADIAG_TRY(as_size(n, key, 1000));
        } else if (k == "exhaustion-percent") {
            const size_t pct = RDMADIAG_TRY(as_size(n, key, 100));
            e.mr_usage.exhaustion_ratio = static_cast<double>(pct) / 100.0;
            // Clears five points lower, so a count hovering at the mark does not flap.
            e.mr_usage.exhaustion_clear_ratio = static_cast<double>(pct > 5 ? pct - 5 : 0) / 100.0;
        } else if (k == "owner-gone-grace") {
            e.mr_usage.owner_gone_grace = RDMADIAG_TRY(as_duration(n, key));
        } else {
            return at(n, "unknown setting " + key);
        }
        return {};
    });
}

}  // namespace

Result<void> apply_config_yaml(const common::YamlNode& root, DaemonConfig& config,
                               const sources::SourceRegistry* registry) {
    if (root.is_null()) return {};
    if (!root.is_map()) return at(root, "the config file must be a mapping of settings");
    for (const auto& [key, v] : root.map) {
        Result<void> r;
        if (key == "web") {
            r = apply_web(v, config.web);
        } else if (key == "log") {
            r = apply_log(v, config);
        } else if (key == "metrics") {
            r = apply_metrics(v, config);
        } else if (key == "path") {
            r = apply_paths(v, config.collector.sources);
        } else if (key == "mr") {
            r = apply_mr(v, config.engine);
        } else if (key == "simulate") {
            if (v.is_null()) {
                config.collector.simulate = "";
            } else if (v.is_scalar() && (v.scalar == "true" || v.scalar == "false")) {
                if (v.scalar == "true")
                    config.collector.simulate = "";
                else
                    config.collector.simulate.reset();
            } else {
                std::string s;
                s = RDMADIAG_TRY(as_string(v, key));
                config.collector.simulate = s;
            }
        } else if (key == "devices") {
            r = each_key(
                v, key, [&](const std::string& k, const common::YamlNode& n) -> Result<void> {
                    if (k == "include")
                        config.collector.sources.include_devices = RDMADIAG_TRY(as_list(n, k));
                    else if (k == "exclude")
                        config.collector.sources.exclude_devices = RDMADIAG_TRY(as_list(n, k));
                    else
                        return at(n, "unknown setting devices." + k);
                    return {};
                });
        } else if (key == "intervals") {
            r = each_key(
                v, key, [&](const std::string& k, const common::YamlNode& n) -> Result<void> {
                    if (k == "counters")
                        config.collector.sources.counter_interval = RDMADIAG_TRY(as_duration(n, k));
                    else if (k == "slow-counters")
                        config.collector.sources.slow_counter_interval =
                            RDMADIAG_TRY(as_duration(n, k));
                    else if (k == "pkeys")
                        config.collector.sources.pkey_interval = RDMADIAG_TRY(as_duration(n, k));
                    else
                        return at(n, "unknown setting intervals." + k);
                    return {};
                });
        } else if (key == "sources") {
            r = each_key(v, key,
                         [&](const std::string& k, const common::YamlNode& n) -> Result<void> {
                             bool on = false;
                             on = RDMADIAG_TRY(as_bool(n, "sources." + k));
                             config.collector.source_switches[k] = on;
                             return {};
                         });
        } else if (key == "source-options") {
            r = each_key(v, key,
                         [&](const std::string& k, const common::YamlNode& n) -> Result<void> {
                             return set_option(n, k, config, registry);
                         });
        } else if (v.is_map() && (!registry || registry->find(key))) {
            r = apply_source_section(key, v, config, registry);
        } else {
            r = at(v, "unknown setting " + key);
        }
        if (!r) return r;
    }
    return {};
}

Result<void> apply_config_text(std::string_view text, DaemonConfig& config,
                               const sources::SourceRegistry* registry) {
    return apply_config_yaml(RDMADIAG_TRY(common::parse_simple_yaml(text)), config, registry);
}

Result<void> apply_config_file(const std::string& path, DaemonConfig& config,
                               const sources::SourceRegistry* registry) {
    const auto text = RDMADIAG_TRY(common::read_text_file(path));
    auto r = apply_config_text(text, config, registry);
    if (!r) return make_error(path + ": " + r.error().message);
    config.config_file = path;
    return {};
}

}  // namespace rdmadiag::daemon
