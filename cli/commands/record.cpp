#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>

#include "cli/commands/commands.hpp"
#include "cli/run_live.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/replay/recorder.hpp"

namespace rdmadiag::cli::commands {

namespace {
// A write that failed half way (disk full, file size limit) leaves a last line cut short. The
// file is cut back to its last whole line so what was recorded replays as it is. Returns the
// bytes kept, or nothing when the file is not a regular one (a pipe, /dev/full) or cannot be cut.
std::optional<uint64_t> trim_to_last_line(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    std::optional<uint64_t> kept;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        std::array<char, 65536> buf{};
        off_t end = st.st_size;
        off_t cut = 0;
        while (end > 0) {
            off_t start =
                end > static_cast<off_t>(buf.size()) ? end - static_cast<off_t>(buf.size()) : 0;
            ssize_t n = ::pread(fd, buf.data(), static_cast<size_t>(end - start), start);
            if (n <= 0) break;
            bool found = false;
            for (ssize_t i = n - 1; i >= 0; --i) {
                if (buf[static_cast<size_t>(i)] == '\n') {
                    cut = start + i + 1;
                    found = true;
                    break;
                }
            }
            if (found) break;
            end = start;
        }
        if (cut == st.st_size || ::ftruncate(fd, cut) == 0) kept = static_cast<uint64_t>(cut);
    }
    ::close(fd);
    return kept;
}

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
    add_trace_file_option(*cmd, ctx.flags);
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
        // A wrong source option stops the command before it leaves an empty recording behind.
        auto checked = ctx.settings().source_settings();
        if (auto r = sources::resolve_source_options(ctx.registry, checked); !r) {
            exit.value = report_error(r.error());
            return;
        }
        // Past a file size limit (RLIMIT_FSIZE) the write fails with EFBIG, reported like a
        // full disk, instead of SIGXFSZ ending the process with the recording cut mid-line.
        std::signal(SIGXFSZ, SIG_IGN);
        std::ofstream out(*file);
        if (!out) {
            exit.value = report_error(make_error("cannot write " + *file));
            return;
        }
        auto engine = engine::make_default_engine();
        const auto settings = ctx.settings();
        replay::RecordingHeader header;
        auto start = settings.start_time();
        header.created = start ? *start : SystemClock{}.now();
        const std::string trace = saved_trace_file(settings);
        header.origin = settings.simulate ? "rdmadiag record --simulate=" + settings.scenario()
                        : !trace.empty()  ? "rdmadiag record --trace " + trace
                                          : "rdmadiag record";
        header.host = host_name();
        // The recording is what the engine consumed, in the order it consumed it.
        replay::Recorder recorder(out, header);
        options.on_observation = [&recorder](const Observation& o) { recorder.emit(o); };
        exit.value = run_live(ctx, *engine, options);
        recorder.flush();
        if (!recorder.good()) {
            std::string why = std::strerror(recorder.error() != 0 ? recorder.error() : EIO);
            std::string kept;
            if (auto bytes = trim_to_last_line(*file)) {
                kept = "; kept the first " + std::to_string(*bytes) +
                       " bytes, whole lines only, which replay as they are";
            }
            exit.value = report_error(make_error("writing " + *file + " failed: " + why + kept));
            return;
        }
        std::fprintf(stderr, "rdmadiag: recorded %llu observations to %s\n",
                     static_cast<unsigned long long>(recorder.written()), file->c_str());
    });
}

}  // namespace rdmadiag::cli::commands
