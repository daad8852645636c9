#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "cli/commands/commands.hpp"
#include "cli/commands/live_run.hpp"
#include "collector/engine/default_engine.hpp"
#include "collector/replay/recorder.hpp"

namespace rdmadiag::cli {

namespace {
class EngineSink final : public ObservationSink {
public:
    explicit EngineSink(Engine& e) : engine_(e) {}
    void emit(Observation obs) override { engine_.consume(obs); }

private:
    Engine& engine_;
};

std::string host_name() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return {};
    return buf;
}
}  // namespace

void register_record_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "record",
        "Record every observation to a JSON Lines file (docs/recording.md) while the "
        "engine runs; a simulated scenario is recorded from start to end");
    add_common_options(*cmd, ctx);
    auto file = std::make_shared<std::string>();
    auto duration = std::make_shared<std::string>();
    cmd->add_option("FILE", *file, "Where to write the recording")->required();
    cmd->add_option("--duration", *duration,
                    "Stop after this long (e.g. 30s, 5m); default: until "
                    "interrupted, or the scenario's end");
    cmd->callback([&ctx, &exit, file, duration] {
        LiveOptions options;
        options.virtual_time = true;
        if (!duration->empty()) {
            auto d = parse_duration(*duration);
            if (!d) {
                exit.value = report_error(d.error());
                return;
            }
            options.duration = *d;
        }
        std::ofstream out(*file);
        if (!out) {
            exit.value = report_error(make_error("cannot write " + *file));
            return;
        }
        auto engine = make_default_engine();
        EngineSink into_engine(*engine);
        RecordingHeader header;
        auto start = ctx.start_time();
        header.created = start ? *start : SystemClock{}.now();
        header.origin =
            ctx.simulate ? "rdmadiag record --simulate=" + ctx.scenario : "rdmadiag record";
        header.host = host_name();
        Recorder recorder(out, header, &into_engine);
        exit.value = run_sources(ctx, *engine, recorder, options);
        recorder.flush();
        if (!recorder.good()) {
            exit.value = report_error(make_error("writing " + *file + " failed"));
            return;
        }
        std::fprintf(stderr, "rdmadiag: recorded %llu observations to %s\n",
                     static_cast<unsigned long long>(recorder.written()), file->c_str());
    });
}

}  // namespace rdmadiag::cli
