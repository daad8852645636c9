#include <cstdio>
#include <thread>

#include "cli/commands/commands.hpp"
#include "cli/render/check_render.hpp"
#include "cli/render/findings_render.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/json/snapshot_json.hpp"
#include "collector/replay/replay_source.hpp"

namespace rdmadiag::cli::commands {

namespace {
class EngineSink final : public sources::ObservationSink {
public:
    explicit EngineSink(engine::Engine& e) : engine_(e) {}
    void emit(Observation obs) override { engine_.consume(obs); }

private:
    engine::Engine& engine_;
};
}  // namespace

void register_replay_command(CLI::App& app, CliContext& ctx, ExitCode& exit) {
    auto* cmd = app.add_subcommand(
        "replay", "Play a recording through the engine and show the findings it reaches");
    cmd->add_flag("--json", ctx.json, "Print the final snapshot as JSON");
    auto clock_start = std::make_shared<std::string>();
    cmd->add_option("--clock.start", *clock_start,
                    "Accepted for symmetry; recordings keep their times")
        ->group("");
    auto file = std::make_shared<std::string>();
    auto speed = std::make_shared<double>(0.0);
    auto fast = std::make_shared<bool>(false);
    cmd->add_option("FILE", *file, "A recording made by 'rdmadiag record'")->required();
    auto* speed_opt = cmd->add_option("--speed", *speed, "Play N times real time");
    cmd->add_flag("--as-fast-as-possible", *fast, "Play without waiting (the default)")
        ->excludes(speed_opt);
    // Capturing clock_start keeps the storage --clock.start writes to alive until parsing ends.
    cmd->callback([&ctx, &exit, file, speed, fast, clock_start] {
        auto rec = replay::read_recording_file(*file);
        if (!rec) {
            exit.value = report_error(rec.error());
            return;
        }
        for (const auto& p : rec->problems) {
            std::fprintf(stderr, "rdmadiag: %s line %llu skipped: %s\n", file->c_str(),
                         static_cast<unsigned long long>(p.line), p.message.c_str());
        }
        const size_t skipped = rec->problems.size();
        replay::ReplaySettings settings;
        settings.speed = *fast ? 0.0 : std::max(0.0, *speed);
        replay::ReplaySource source(std::move(*rec), settings);
        auto engine = engine::make_default_engine();
        EngineSink sink(*engine);
        SystemClock clock;
        while (!source.finished()) {
            source.poll(clock.now(), sink);
            (void)engine->take_refresh_requests();  // a recording cannot be re-read
            if (auto due = source.next_due(); due && settings.speed > 0) {
                std::this_thread::sleep_until(std::chrono::system_clock::time_point(
                    std::chrono::duration_cast<std::chrono::system_clock::duration>(
                        due->time_since_epoch())));
            }
        }
        auto snap = engine->snapshot();
        if (ctx.json) {
            print_json(codec::snapshot_to_json(*snap));
        } else {
            std::printf("Replayed %zu observations from %s (%zu lines skipped)\n", source.played(),
                        file->c_str(), skipped);
            std::fputs(render::render_findings_summary(*snap).c_str(), stdout);
            std::printf("Cleared during the recording: %zu\n", snap->finding_history.size());
            for (const auto& f : snap->finding_history) {
                std::printf("  %s %s %s -> %s\n", f.rule.c_str(), f.subject.to_string().c_str(),
                            format_time(f.since).c_str(),
                            f.cleared ? format_time(*f.cleared).c_str() : "-");
            }
        }
        exit.value = 0;
    });
}

}  // namespace rdmadiag::cli::commands
