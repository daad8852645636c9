#include "cli/commands/serve.hpp"

#include <cstdio>
#include <filesystem>

#include "collector/common/malloc_tuning.hpp"
#include "collector/daemon/collector_daemon.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/runtime/signal_watcher.hpp"
#include "exporters/api/api_router.hpp"
#include "exporters/api/http_server.hpp"

namespace rdmadiag::cli::commands {

void add_serve_flags(CLI::App& cmd, ServeFlags& f, const sources::SourceRegistry& registry) {
    cmd.add_option("--config.file", f.config_file, "YAML file with the same settings as the flags");
    cmd.add_option("--web.listen-address", f.listen_address,
                   "Address to serve /metrics and the API on (default :" +
                       std::to_string(daemon::kDefaultPort) + ")");
    cmd.add_option("--web.config.file", f.web_config_file,
                   "exporter-toolkit web config: TLS and basic auth");
    cmd.add_option("--web.max-connections", f.max_connections,
                   "Requests answered at once; more wait their turn (default 4)")
        ->check(CLI::Range(size_t{1}, daemon::kMaxWebConnections));
    cmd.add_option("--web.max-pending-connections", f.max_pending_connections,
                   "Connections not yet answered (TLS handshake, request head, waiting); "
                   "one more drops the oldest (default 512)")
        ->check(CLI::Range(size_t{1}, daemon::kMaxWebPendingConnections));
    cmd.add_option("--web.request-timeout", f.request_timeout, "Drop clients slower than this");
    cmd.add_option("--metrics.detail", f.metrics_detail,
                   "standard (about 32 series per port at most; the default) or full (every "
                   "counter's resets and saturation, LID gauges, table generations)")
        ->check(CLI::IsMember({"standard", "full"}));
    cmd.add_option("--log.level", f.log_level, "debug, info, warn or error");
    cmd.add_option("--log.format", f.log_format, "logfmt or json");
    cli::add_collector_flags(cmd, f.collector, registry);
}

Result<daemon::DaemonConfig> resolve_serve_config(const ServeFlags& f,
                                                  const sources::SourceRegistry& registry) {
    daemon::DaemonConfig c;
    if (f.config_file) {
        RDMADIAG_TRY(daemon::apply_config_file(*f.config_file, c, &registry));
    }
    if (f.listen_address) c.web.listen_address = *f.listen_address;
    if (f.web_config_file) c.web.config_file = *f.web_config_file;
    if (f.max_connections) c.web.max_connections = *f.max_connections;
    if (f.max_pending_connections) c.web.max_pending_connections = *f.max_pending_connections;
    if (f.request_timeout) {
        auto d = parse_duration(*f.request_timeout);
        if (!d) return make_error("--web.request-timeout: " + d.error().message);
        c.web.request_timeout = *d;
    }
    if (f.metrics_detail) c.metrics_full_detail = *f.metrics_detail == "full";
    if (f.log_level) {
        auto l = common::parse_log_level(*f.log_level);
        if (!l) return make_error("--log.level must be debug, info, warn or error");
        c.log_level = *l;
    }
    if (f.log_format) {
        auto l = common::parse_log_format(*f.log_format);
        if (!l) return make_error("--log.format must be logfmt or json");
        c.log_format = *l;
    }
    f.collector.apply_to(c.collector);
    // Each value was checked where it was given; what one option says of another is checked
    // once both are known.
    sources::SourceSettings check = c.collector.source_settings();
    RDMADIAG_TRY(sources::resolve_source_options(registry, check));
    return c;
}

namespace {

Result<api::HttpServerOptions> http_options(const daemon::DaemonConfig& c) {
    api::HttpServerOptions o;
    o.listen_address = c.web.listen_address;
    o.max_connections = c.web.max_connections;
    o.request_timeout = c.web.request_timeout;
    o.max_request_bytes = c.web.max_request_bytes;
    o.max_pending = c.web.max_pending_connections;
    if (!c.web.config_file.empty()) {
        o.web = RDMADIAG_TRY(api::load_web_config(c.web.config_file));
    }
    return o;
}

bool same_web(const daemon::WebSettings& a, const daemon::WebSettings& b) {
    return a.listen_address == b.listen_address && a.config_file == b.config_file &&
           a.max_connections == b.max_connections && a.request_timeout == b.request_timeout &&
           a.max_request_bytes == b.max_request_bytes &&
           a.max_pending_connections == b.max_pending_connections;
}

}  // namespace

std::optional<std::string> simulate_when_no_device(daemon::DaemonConfig& config,
                                                   const sources::SourceRegistry& registry) {
    if (config.collector.simulate || !config.collector.source_switches.empty() ||
        runtime::asked_for_by_options(registry, config.collector) ||
        !registry.find(runtime::kSimulatedSourceName))
        return std::nullopt;
    std::error_code ec;
    std::filesystem::path dir =
        std::filesystem::path(config.collector.sources.sysfs_root) / "class/infiniband";
    bool any = std::filesystem::exists(dir, ec) && std::filesystem::directory_iterator(dir, ec) !=
                                                       std::filesystem::directory_iterator();
    if (any || config.collector.sources.sysfs_root != "/sys") return std::nullopt;
    config.collector.simulate = "";
    return "no RDMA device under " + dir.string() +
           ": serving the simulated fabric (choose a scenario with --simulate=NAME)";
}

int run_serve(const ServeFlags& flags, const sources::SourceRegistry& registry, ServeHooks hooks) {
    common::limit_malloc_arenas();
    std::unique_ptr<runtime::SignalWatcher> signals;
    try {
        signals = std::make_unique<runtime::SignalWatcher>();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rdmadiag serve: %s\n", e.what());
        return 1;
    }
    auto config = resolve_serve_config(flags, registry);
    if (!config) {
        std::fprintf(stderr, "rdmadiag serve: %s\n", config.error().message.c_str());
        return 2;
    }
    common::Logger log(config->log_level, config->log_format);
    if (auto note = simulate_when_no_device(*config, registry)) log.warn(*note);
    auto options = http_options(*config);
    if (!options) {
        log.error("bad web config", {{"error", options.error().message}});
        return 2;
    }

    SystemClock clock;
    publish::SnapshotStore store;
    // The engine keeps its state across reloads, so its thresholds (mr:) are read at start only.
    daemon::CollectorDaemon collector(registry, engine::make_default_engine(config->engine), store,
                                      log, clock);
    auto detail = [](const daemon::DaemonConfig& c) {
        return c.metrics_full_detail ? prom::MetricsDetail::full : prom::MetricsDetail::standard;
    };
    api::ApiRouter router(store, detail(*config));
    auto handler = [&router](const api::HttpRequest& r) { return router.handle(r); };

    auto server = std::make_unique<api::HttpServer>(*options, handler, &log);
    if (auto r = server->start(); !r) {
        log.error("cannot start HTTP server", {{"error", r.error().message}});
        return 1;
    }
    if (auto r = collector.start(*config); !r) {
        log.error("cannot start collector", {{"error", r.error().message}});
        return 2;
    }
    auto ports = server->ports();
    int port = ports.empty() ? 0 : ports.front();
    log.info("listening", {{"address", config->web.listen_address},
                           {"port", std::to_string(port)},
                           {"tls", server->tls() ? "true" : "false"}});
    if (hooks.on_listening) hooks.on_listening(port);

    for (;;) {
        auto sig = signals->wait(Duration(-1));
        if (!sig) continue;
        if (*sig == runtime::DaemonSignal::terminate) break;
        log.info("reloading configuration");
        auto next = resolve_serve_config(flags, registry);
        if (next) simulate_when_no_device(*next, registry);
        if (!next) {
            log.error("reload failed, keeping the running configuration",
                      {{"error", next.error().message}});
            continue;
        }
        auto next_options = http_options(*next);
        if (!next_options) {
            log.error("reload failed, keeping the running configuration",
                      {{"error", next_options.error().message}});
            continue;
        }
        if (auto r = collector.reload(*next); !r) {
            log.error("reload failed, keeping the running sources", {{"error", r.error().message}});
            continue;
        }
        log.set_level(next->log_level);
        router.set_metrics_detail(detail(*next));
        // The listener is restarted only when its settings (or the web config) changed; the
        // web config file is re-read on every reload since its content may have changed.
        bool restart = !same_web(next->web, config->web) || !next->web.config_file.empty();
        if (restart) {
            auto fresh = std::make_unique<api::HttpServer>(*next_options, handler, &log);
            server->stop();
            if (auto r = fresh->start(); !r) {
                log.error("new listener failed, restoring the previous one",
                          {{"error", r.error().message}});
                server = std::make_unique<api::HttpServer>(*options, handler, &log);
                if (auto again = server->start(); !again) {
                    log.error("cannot restore listener", {{"error", again.error().message}});
                    return 1;
                }
            } else {
                server = std::move(fresh);
                options = std::move(next_options);
            }
        }
        config = std::move(next);
    }
    log.info("shutting down");
    server->stop();
    collector.stop();
    log.info("stopped");
    return 0;
}

void register_serve_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "serve", "Run the collector and serve /metrics, /api/v1/ and /healthz on one port");
    auto flags = std::make_shared<ServeFlags>();
    add_serve_flags(*cmd, *flags, ctx.registry);
    cmd->callback([flags, &ctx, &exit] { exit.value = run_serve(*flags, ctx.registry); });
}

}  // namespace rdmadiag::cli::commands
