#include "cli/collector_flags.hpp"

#include "collector/sources/tracefs/tracefs_source.hpp"

namespace rdmadiag::cli {

void CollectorFlags::apply_to(runtime::CollectorSettings& settings) const {
    for (const auto& edit : edits_) edit(settings);
}

runtime::CollectorSettings CollectorFlags::applied() const {
    runtime::CollectorSettings s;
    apply_to(s);
    return s;
}

namespace {

using Settings = runtime::CollectorSettings;

void add_path(CLI::App& cmd, CollectorFlags& f, const std::string& name,
              std::string sources::SourceSettings::*member, const std::string& help) {
    cmd.add_option_function<std::string>(
           name,
           [&f, member](const std::string& v) {
               f.add([v, member](Settings& s) { s.sources.*member = v; });
           },
           help)
        ->type_name("DIR");
}

void add_device_list(CLI::App& cmd, CollectorFlags& f, const std::string& names,
                     std::vector<std::string> sources::SourceSettings::*member,
                     const std::string& help) {
    cmd.add_option_function<std::vector<std::string>>(
           names,
           [&f, member](const std::vector<std::string>& v) {
               f.add([v, member](Settings& s) { s.sources.*member = v; });
           },
           help)
        ->type_name("GLOB")
        ->expected(1)
        ->delimiter(',')
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_interval(CLI::App& cmd, CollectorFlags& f, const std::string& name,
                  Duration sources::SourceSettings::*member, const std::string& help) {
    cmd.add_option_function<std::string>(
           name,
           [&f, name, member](const std::string& v) {
               auto d = parse_duration(v);
               if (!d || *d <= Duration::zero())
                   throw CLI::ValidationError(name, "not a duration: " + v);
               f.add([d = *d, member](Settings& s) { s.sources.*member = d; });
           },
           help)
        ->type_name("DURATION");
}

// --KEY VALUE for every option a source declares, and its older spelling where it has one (which
// errors name, being the one scripts use).
void add_source_option_flags(CLI::App& cmd, CollectorFlags& f,
                             const sources::SourceRegistry& registry) {
    for (const auto& entry : registry.entries()) {
        for (const auto& spec : entry.options) {
            std::string names = "--" + std::string(spec.key);
            if (!spec.alias.empty()) names += ",--" + std::string(spec.alias);
            cmd.add_option_function<std::string>(
                   names,
                   [&f, &registry, key = std::string(spec.key),
                    flag = "--" + std::string(spec.alias.empty() ? spec.key : spec.alias)](
                       const std::string& v) { f.add(source_option_edit(registry, flag, key, v)); },
                   sources::option_help(spec))
                ->type_name(sources::option_value_name(spec))
                ->group("Source options");
        }
    }
}

}  // namespace

CollectorFlags::Edit source_option_edit(const sources::SourceRegistry& registry,
                                        const std::string& flag, std::string key,
                                        std::string value) {
    if (auto r = sources::check_source_option(registry, key, value); !r)
        throw CLI::ValidationError(flag, r.error().message);
    return [key = std::move(key), value = std::move(value)](Settings& s) {
        s.sources.extra[key] = value;
    };
}

CollectorFlags::Edit trace_file_edit(std::string path) {
    return [path = std::move(path)](Settings& s) {
        s.sources.extra[tracefs::kTraceFileOption] = path;
        s.source_switches["tracefs"] = true;
    };
}

void add_trace_file_option(CLI::App& cmd, CollectorFlags& f) {
    cmd.add_option_function<std::string>(
           "--trace", [&f](const std::string& v) { f.add(trace_file_edit(v)); },
           "Read MR events from a saved trace instead of tracefs: the kernel's trace file as "
           "saved (cat /sys/kernel/tracing/trace > FILE) or trace-cmd report output")
        ->type_name("FILE");
}

void add_collector_flags(CLI::App& cmd, CollectorFlags& f,
                         const sources::SourceRegistry& registry) {
    add_path(cmd, f, "--path.sysfs", &sources::SourceSettings::sysfs_root,
             "sysfs mount point (default /sys)");
    add_path(cmd, f, "--path.tracefs", &sources::SourceSettings::tracefs_root,
             "tracefs mount point (default: /sys/kernel/tracing, then /sys/kernel/debug/tracing)");
    add_path(cmd, f, "--path.procfs", &sources::SourceSettings::procfs_root,
             "procfs mount point (default /proc)");
    cmd.add_option_function<std::string>(
           "--simulate",
           [&f](const std::string& v) { f.add([v](Settings& s) { s.simulate = v; }); },
           "Use the built-in simulated fabric, playing SCENARIO (a shipped name or a file)")
        ->expected(0, 1)
        ->type_name("[SCENARIO]");
    // --device and --exclude-device are the one-shot commands' older spellings, kept so existing
    // scripts keep working.
    add_device_list(cmd, f, "--device.include,--device", &sources::SourceSettings::include_devices,
                    "Only these devices (glob; repeatable or comma-separated)");
    add_device_list(cmd, f, "--device.exclude,--exclude-device",
                    &sources::SourceSettings::exclude_devices,
                    "Skip these devices (glob; repeatable or comma-separated)");
    add_interval(cmd, f, "--interval.counters", &sources::SourceSettings::counter_interval,
                 "How often port state and the fast counter tier (error and violation counters) "
                 "are read (default 1s)");
    add_interval(cmd, f, "--interval.slow-counters",
                 &sources::SourceSettings::slow_counter_interval,
                 "How often the slow counter tier (data, packet and hw counters) is read "
                 "(default 15s; never more often than --interval.counters)");
    add_interval(cmd, f, "--interval.pkeys", &sources::SourceSettings::pkey_interval,
                 "How often P_Key tables are read (default 10s)");
    for (const auto& entry : registry.entries()) {
        const auto name = entry.name;
        cmd.add_flag_callback(
               "--source." + name,
               [&f, name] { f.add([name](Settings& s) { s.source_switches[name] = true; }); },
               "Use source " + name + (entry.enabled_by_default ? " (on by default)" : "") + ": " +
                   entry.description)
            ->group("Sources");
        cmd.add_flag_callback(
               "--no-source." + name,
               [&f, name] { f.add([name](Settings& s) { s.source_switches[name] = false; }); },
               "Do not use source " + name)
            ->group("Sources");
    }
    add_source_option_flags(cmd, f, registry);
    cmd.add_option_function<std::vector<std::string>>(
           "--source.opt",
           [&f, &registry](const std::vector<std::string>& kvs) {
               for (const auto& kv : kvs) {
                   const auto eq = kv.find('=');
                   if (eq == std::string::npos || eq == 0) {
                       throw CLI::ValidationError("--source.opt", "expects KEY=VALUE: " + kv);
                   }
                   f.add(source_option_edit(registry, "--source.opt", kv.substr(0, eq),
                                            kv.substr(eq + 1)));
               }
           },
           "Source option KEY=VALUE (e.g. mad.scope=subnet), repeatable")
        ->type_name("KEY=VALUE")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd.add_option_function<std::string>(
           "--clock.start",
           [&f](const std::string& v) { f.add([v](Settings& s) { s.clock_start = v; }); },
           "Treat this RFC 3339 UTC time as now (reproducible output)")
        ->group("");
}

}  // namespace rdmadiag::cli
