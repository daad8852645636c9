#pragma once
// Runs probe_producer as a child process and pumps a ProbeSource until a condition holds.

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "collector/probe/probe_source.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::test {

class Producer {
public:
    explicit Producer(std::vector<std::string> args) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe");
        pid_ = fork();
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[1]);
            close(out[0]);
            std::vector<char*> argv;
            static std::string exe =
                ::rdmadiag::test::binary_dir() + "/tests/collector/probe/probe_producer";
            argv.push_back(exe.data());
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(exe.c_str(), argv.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_child_ = in[1];
        from_child_ = out[0];
    }
    ~Producer() {
        if (to_child_ >= 0) close(to_child_);
        close(from_child_);
        if (!exited_) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    // Reads the child's stdout up to a line equal to `want` (blocking: the child writes it).
    std::string read_until(const std::string& want) {
        std::string all, line;
        char c;
        while (read(from_child_, &c, 1) == 1) {
            if (c == '\n') {
                all += line + "\n";
                if (line == want) break;
                line.clear();
            } else {
                line += c;
            }
        }
        return all;
    }
    // Lets a producer that waits for a line go on, keeping its stdin open for the next one.
    void next() {
        if (write(to_child_, "go\n", 3) != 3) ADD_FAILURE() << "cannot step the producer";
    }
    void release() {
        if (write(to_child_, "go\n", 3) != 3) ADD_FAILURE() << "cannot release the producer";
        close(to_child_);
        to_child_ = -1;
    }
    bool exited() {
        if (exited_) return true;
        int st = 0;
        if (waitpid(pid_, &st, WNOHANG) == pid_) {
            exited_ = true;
            status_ = st;
        }
        return exited_;
    }
    int status() const { return status_; }
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    bool exited_ = false;
    int status_ = 0;
};

// Waits on the source's descriptor (not a sleep: the wait ends when there is something to do)
// and drains, until `done` or about 20 s.
inline bool pump(probe::ProbeSource& src, sources::ObservationSink& sink,
                 const std::function<bool()>& done) {
    for (int i = 0; i < 400; ++i) {
        auto fds = src.event_fds();
        if (fds.empty()) return false;
        pollfd p{fds[0], POLLIN, 0};
        ::poll(&p, 1, 50);
        TimePoint now = SystemClock().now();
        if (p.revents & POLLIN) src.on_readable(fds[0], now, sink);
        src.poll(now, sink);
        if (done()) return true;
    }
    return false;
}

// Whether the source's descriptor is readable at this moment. A message a producer sent before
// it printed a line is in the socket's queue once that line is read: no waiting needed.
inline bool readable_now(int fd) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

}  // namespace rdmadiag::test
