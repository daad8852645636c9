#include "collector/sources/tracefs/tracefs_source.hpp"

#include <fcntl.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "collector/common/time.hpp"
#include "collector/sources/tracefs/kernel_mr_behaviour.hpp"
#include "collector/sources/tracefs/mr_trace_parser.hpp"
#include "collector/sources/tracefs/saved_trace_source.hpp"
#include "collector/sources/tracefs/tracefs_options.hpp"

namespace rdmadiag::tracefs {

namespace {

namespace fs = std::filesystem;

struct EventName {
    const char* system;
    const char* event;
};

// Every event the parser reads. Missing ones are fine: kernels differ.
constexpr std::array<EventName, 11> kEvents{{
    {"rpcrdma", "xprtrdma_wc_fastreg"},
    {"rpcrdma", "xprtrdma_wc_li"},
    {"rpcrdma", "xprtrdma_wc_li_wake"},
    {"rpcrdma", "xprtrdma_wc_li_done"},
    {"rpcrdma", "xprtrdma_frwr_done"},
    {"rpcrdma", "xprtrdma_frwr_alloc"},
    {"rpcrdma", "xprtrdma_frwr_dereg"},
    {"rdma_core", "mr_alloc"},
    {"rdma_core", "mr_integ_alloc"},
    {"rdma_core", "mr_dereg"},
    {"rdma_core", "mr_reg"},
}};

constexpr size_t kMaxErrorsPerRead = 10;
constexpr size_t kMaxBytesPerWakeup = 1 << 20;

bool exists(const std::string& p) {
    std::error_code ec;
    return fs::exists(p, ec);
}

// Unless told, tracefs is looked for under the sysfs root the other sources read: the running
// kernel's for /sys, a captured tree's own for a copy.
std::string resolve_root(const std::string& configured, const std::string& sysfs_root,
                         std::string& why) {
    if (!configured.empty()) {
        if (!exists(configured + "/trace")) {
            why = "tracefs root " + configured + " has no 'trace' file: not a tracefs mount";
            return configured;
        }
        return configured;
    }
    const std::string tracing = sysfs_root + "/kernel/tracing";
    const std::string debug = sysfs_root + "/kernel/debug/tracing";
    for (const auto& c : {tracing, debug}) {
        if (exists(c + "/trace")) return c;
    }
    why = "tracefs is not mounted at " + tracing + " or " + debug;
    if (sysfs_root == "/sys") why += " (mount -t tracefs nodev /sys/kernel/tracing)";
    return tracing;
}

Duration realtime_minus_monotonic() {
    timespec rt{}, mono{};
    clock_gettime(CLOCK_REALTIME, &rt);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    auto ns = [](const timespec& t) {
        return static_cast<int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
    };
    return Duration{ns(rt) - ns(mono)};
}

// Trace events carry no device; with exactly one RDMA device on the host it is that one.
std::string only_device(const sources::SourceSettings& s) {
    if (auto given = s.options.text("tracefs.device")) return *given;
    std::error_code ec;
    std::string found;
    int n = 0;
    for (const auto& e : fs::directory_iterator(s.sysfs_root + "/class/infiniband", ec)) {
        found = e.path().filename().string();
        ++n;
    }
    return n == 1 ? found : std::string();
}

}  // namespace

TracefsSource::TracefsSource(const sources::SourceSettings& settings, TracefsMode mode,
                             std::optional<Duration> clock_offset)
    : mode_(mode), device_(only_device(settings)) {
    clock_offset_ = clock_offset ? *clock_offset : realtime_minus_monotonic();
    std::string why;
    root_ = resolve_root(settings.tracefs_root, settings.sysfs_root, why);
    if (!why.empty()) {
        availability_ = {false, why};
        return;
    }
    const bool rpcrdma = exists(root_ + "/events/rpcrdma");
    const bool core = exists(root_ + "/events/rdma_core");
    // The tracepoints only count when readable.
    if (auto given = mr_behaviour_from_option(settings.options)) {
        kernel_ = *given;
    } else {
        // This host's release describes the tracefs read only when that is this host's tracefs,
        // or when a procfs tree was given with it.
        const bool live = settings.tracefs_root.empty() && settings.sysfs_root == "/sys";
        const bool procfs_given = settings.procfs_root != "/proc";
        kernel_ = live_mr_behaviour(root_, live || procfs_given ? settings.procfs_root : "");
    }
    if (!rpcrdma && !core) {
        availability_ = {false, "no rpcrdma or rdma_core trace events under " + root_ +
                                    "/events: load rpcrdma (NFS over RDMA) or ib_core"};
        return;
    }
    const std::string file = root_ + (mode_ == TracefsMode::follow ? "/trace_pipe" : "/trace");
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        availability_ = {false, "cannot open " + file + ": " + std::strerror(errno) +
                                    (errno == EACCES ? " (needs root)" : "")};
        return;
    }
    if (mode_ == TracefsMode::follow) {
        epoll_fd_ = ::epoll_create1(EPOLL_CLOEXEC);
        if (epoll_fd_ < 0) {
            availability_ = {false, std::string("epoll_create1: ") + std::strerror(errno)};
            ::close(fd);
            return;
        }
        ::close(fd);
        std::string open_why;
        if (!open_pipe(open_why)) {
            availability_ = {false, open_why};
            return;
        }
        probe_events(true);
    } else {
        ::close(fd);
        probe_events(false);
    }
    std::string note;
    if (!rpcrdma) note = "rpcrdma events absent (module not loaded): NFS/RDMA MRs not seen";
    if (!core) note = "rdma_core events absent: only NFS/RDMA MRs seen";
    if (!availability_.reason.empty()) {
        note += (note.empty() ? "" : "; ") + availability_.reason;
    }
    availability_ = {true, note};
    note_ = note;
}

bool TracefsSource::open_pipe(std::string& why) {
    const std::string file = root_ + "/trace_pipe";
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        why = "cannot open " + file + ": " + std::strerror(errno) +
              (errno == EACCES ? " (needs root)" : "");
        return false;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    if (::epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
        why = "cannot watch " + file + ": " + std::strerror(errno);
        ::close(fd);
        return false;
    }
    pipe_fd_ = fd;
    return true;
}

void TracefsSource::close_pipe() {
    if (pipe_fd_ < 0) return;
    ::epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, pipe_fd_, nullptr);
    ::close(pipe_fd_);
    pipe_fd_ = -1;
    lines_ = LineAssembler();  // a line cut by the end of the pipe is not glued to the next one
}

void TracefsSource::set_status(bool up, std::string reason, TimePoint now,
                               sources::ObservationSink& sink) {
    if (status_sent_ && availability_.available == up && availability_.reason == reason) return;
    availability_ = {up, std::move(reason)};
    status_sent_ = true;
    sink.emit(
        Observation{now, "tracefs", SourceStatus{availability_.available, availability_.reason}});
}

TracefsSource::~TracefsSource() {
    for (const auto& e : enabled_) {
        std::ofstream(root_ + "/events/" + e + "/enable") << "0\n";
    }
    close_pipe();
    if (epoll_fd_ >= 0) ::close(epoll_fd_);
}

void TracefsSource::probe_events(bool enable) {
    std::string failures;
    for (const auto& e : kEvents) {
        const std::string dir = root_ + "/events/" + e.system + "/" + e.event;
        if (!exists(dir)) continue;
        std::string current;
        std::ifstream(dir + "/enable") >> current;
        if (current == "1") continue;
        if (!enable) {
            failures += std::string(failures.empty() ? "" : ", ") + e.system + ":" + e.event;
            continue;
        }
        std::ofstream out(dir + "/enable");
        out << "1\n";
        out.flush();
        if (out) {
            enabled_.push_back(std::string(e.system) + "/" + e.event);
        } else {
            failures += std::string(failures.empty() ? "" : ", ") + e.system + ":" + e.event;
        }
    }
    if (!failures.empty()) {
        availability_.reason =
            std::string(enable ? "could not enable " : "not enabled: ") + failures;
    }
}

Duration TracefsSource::poll_interval() const {
    // Follow mode polls only to reopen a trace_pipe that ended.
    if (mode_ == TracefsMode::follow && epoll_fd_ < 0) return Duration::zero();
    return std::chrono::seconds(1);
}

std::vector<int> TracefsSource::event_fds() const {
    if (epoll_fd_ < 0) return {};
    return {epoll_fd_};
}

void TracefsSource::emit_status(TimePoint now, sources::ObservationSink& sink) {
    if (status_sent_) return;
    status_sent_ = true;
    sources::Availability a = availability();
    sink.emit(Observation{now, "tracefs", SourceStatus{a.available, a.reason}});
    if (kernel_ && a.available) sink.emit(Observation{now, "tracefs", *kernel_});
}

void TracefsSource::poll(TimePoint now, sources::ObservationSink& sink) {
    now_ = now;
    emit_status(now, sink);
    if (mode_ == TracefsMode::follow) {
        if (epoll_fd_ < 0 || pipe_fd_ >= 0) return;
        std::string why;
        if (open_pipe(why)) {
            set_status(true, note_, now, sink);
        } else {
            set_status(false, "trace_pipe ended and " + why, now, sink);
        }
        return;
    }
    if (read_once_ || !availability_.available) return;
    read_once_ = true;
    std::ifstream in(root_ + "/trace", std::ios::binary);
    if (!in) {
        sink.emit(Observation{now, "tracefs",
                              SampleError{root_ + "/trace", std::strerror(errno), errno}});
        return;
    }
    errors_this_read_ = 0;
    std::array<char, 65536> buf{};
    while (in.read(buf.data(), buf.size()) || in.gcount() > 0) {
        feed(std::string_view(buf.data(), static_cast<size_t>(in.gcount())), sink);
    }
    feed("\n", sink);  // a last line without newline still counts
}

void TracefsSource::on_readable(int fd, TimePoint now, sources::ObservationSink& sink) {
    now_ = now;
    emit_status(now, sink);
    if (fd != epoll_fd_ || pipe_fd_ < 0) return;
    errors_this_read_ = 0;
    std::array<char, 65536> buf{};
    size_t total = 0;
    while (total < kMaxBytesPerWakeup) {
        ssize_t n = ::read(pipe_fd_, buf.data(), buf.size());
        if (n > 0) {
            total += static_cast<size_t>(n);
            feed(std::string_view(buf.data(), static_cast<size_t>(n)), sink);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (errno == EINTR) continue;
            return;  // drained
        }
        // End of file (the writer of a fifo went away) or a read error: an ended pipe stays
        // readable, so it is closed rather than read again on every wake-up.
        std::string why = n == 0 ? std::string("end of file") : std::strerror(errno);
        feed("\n", sink);  // what the writer left without a newline still counts
        close_pipe();
        sink.emit(Observation{now, "tracefs",
                              SampleError{root_ + "/trace_pipe", "trace_pipe ended: " + why, 0}});
        set_status(false, "trace_pipe ended (" + why + "): reopening", now, sink);
        return;
    }
}

void TracefsSource::feed(std::string_view chunk, sources::ObservationSink& sink) {
    lines_.feed(chunk, [&](std::string_view line) { handle_line(line, sink, 0); });
}

void TracefsSource::handle_line(std::string_view line, sources::ObservationSink& sink, int depth) {
    if (depth == 0) ++stats_.lines;
    if (depth == 0) {
        size_t splice = find_spliced_record(line);
        if (splice != std::string_view::npos) {
            ++stats_.spliced;
            handle_line(line.substr(0, splice), sink, 1);
            handle_line(line.substr(splice), sink, 1);
            return;
        }
    }
    auto parsed = parse_mr_trace_line(line, device_);
    if (!parsed) {
        ++stats_.malformed;
        if (errors_this_read_++ < kMaxErrorsPerRead) {
            std::string shown(line.substr(0, 120));
            sink.emit(Observation{
                now_, "tracefs",
                SampleError{"trace line \"" + shown + "\"", parsed.error().message, 0}});
        }
        return;
    }
    if (!*parsed) return;
    ++stats_.mr_events;
    TraceMrEvent& ev = **parsed;
    sink.emit(Observation{TimePoint{} + clock_offset_ + ev.timestamp, "tracefs", std::move(ev.mr)});
}

sources::SourceEntry tracefs_source_entry() {
    sources::SourceEntry e;
    e.name = "tracefs";
    e.description = "kernel MR events (rpcrdma, rdma_core) from tracefs";
    // Off in generic one-shot collection; `rdmadiag status`, `check` and `mrs` switch it on
    // (cli/cli_context with_mr_sources), the daemon by its configuration.
    e.enabled_by_default = false;
    e.options = tracefs_options();
    // One-shot by default (reads <root>/trace, changes nothing); a daemon sets
    // tracefs.mode=follow to enable the events and read trace_pipe.
    e.factory = [](const sources::SourceSettings& s) -> Result<std::unique_ptr<sources::Source>> {
        // A trace captured elsewhere: the wall time its trace clock counts from.
        std::optional<Duration> offset;
        if (auto b = s.options.get<TimePoint>("tracefs.boot_time")) offset = b->time_since_epoch();
        // A saved trace file stands in for the tracefs mount: nothing on this host is read.
        if (auto f = s.options.text(kTraceFileOption)) {
            return std::unique_ptr<sources::Source>(std::make_unique<SavedTraceSource>(
                *f, only_device(s), offset ? *offset : realtime_minus_monotonic(),
                mr_behaviour_from_option(s.options), s.options.text(kKernelOption).value_or("")));
        }
        const bool follow = s.options.text("tracefs.mode") == "follow";
        return std::unique_ptr<sources::Source>(std::make_unique<TracefsSource>(
            s, follow ? TracefsMode::follow : TracefsMode::once, offset));
    };
    return e;
}

}  // namespace rdmadiag::tracefs
