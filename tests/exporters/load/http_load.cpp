// A load client for `rdmadiag serve`: C connections, each a loop of GET requests (one request per
// connection, as the daemon serves them) over the given paths in turn, for a bounded time. While
// it runs it samples the daemon's resident memory from /proc/PID/status. It prints key=value
// lines: requests, errors by kind, requests per second, latency percentiles overall and per
// path, and the memory samples summarised (start, middle, end, and the medians of the first
// and last thirds of the run).
//
// Usage: http_load --port P [--host 127.0.0.1] [--seconds 10] [--connections 16]
//                  [--pid PID] [--sample-ms 200] PATH...
// Exit status: 0 when every request got a complete 2xx answer, 1 otherwise, 2 on bad usage.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    std::string host = "127.0.0.1";
    int port = 0;
    double seconds = 10;
    int connections = 16;
    int pid = 0;
    int sample_ms = 200;
    std::vector<std::string> paths;
};

enum class Outcome { ok, connect_error, io_error, bad_status, short_body };

struct Sample {
    size_t path;
    Outcome outcome;
    int status;
    double ms;
};

// Sends one GET and reads the answer to the end; checks the status and the body length.
Sample one_request(const Options& o, const sockaddr_in& addr, size_t path, std::string& buf) {
    Sample s{path, Outcome::ok, 0, 0};
    const auto start = Clock::now();
    auto finish = [&](Outcome out) {
        s.outcome = out;
        s.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        return s;
    };
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return finish(Outcome::connect_error);
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    timeval tv{30, 0};  // a stuck exchange is an error, not a hang
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
        return finish(Outcome::connect_error);
    const std::string req = "GET " + o.paths[path] + " HTTP/1.1\r\nHost: " + o.host +
                            "\r\nUser-Agent: http_load\r\n\r\n";
    if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(req.size()))
        return finish(Outcome::io_error);
    buf.clear();
    char chunk[65536];
    for (;;) {
        ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n < 0) return finish(Outcome::io_error);
        if (n == 0) break;
        buf.append(chunk, static_cast<size_t>(n));
    }
    if (buf.size() < 12 || buf.compare(0, 5, "HTTP/") != 0) return finish(Outcome::io_error);
    s.status = std::atoi(buf.c_str() + 9);
    if (s.status < 200 || s.status > 299) return finish(Outcome::bad_status);
    size_t end = buf.find("\r\n\r\n");
    if (end == std::string::npos) return finish(Outcome::short_body);
    std::string head = buf.substr(0, end);
    for (auto& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    size_t cl = head.find("\r\ncontent-length:");
    if (cl != std::string::npos &&
        std::strtoull(head.c_str() + cl + 17, nullptr, 10) != buf.size() - end - 4) {
        return finish(Outcome::short_body);
    }
    return finish(Outcome::ok);
}

long rss_kb(int pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    }
    return -1;
}

double percentile(std::vector<double>& v, double p) {
    if (v.empty()) return 0;
    size_t k = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

long median(std::vector<long> v) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int usage() {
    std::fprintf(stderr,
                 "usage: http_load --port P [--host H] [--seconds S] [--connections C] "
                 "[--pid PID] [--sample-ms MS] PATH...\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--host") {
            o.host = value();
        } else if (a == "--port") {
            o.port = std::atoi(value());
        } else if (a == "--seconds") {
            o.seconds = std::atof(value());
        } else if (a == "--connections") {
            o.connections = std::atoi(value());
        } else if (a == "--pid") {
            o.pid = std::atoi(value());
        } else if (a == "--sample-ms") {
            o.sample_ms = std::atoi(value());
        } else if (!a.empty() && a[0] == '/') {
            o.paths.push_back(a);
        } else {
            return usage();
        }
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(o.port));
    if (o.port <= 0 || o.paths.empty() || o.connections <= 0 || o.seconds <= 0 ||
        inet_pton(AF_INET, o.host.c_str(), &addr.sin_addr) != 1) {
        return usage();
    }

    const auto start = Clock::now();
    const auto stop_at = start + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(o.seconds));
    std::atomic<bool> done{false};
    std::vector<long> rss;
    std::thread sampler([&] {
        while (o.pid > 0 && !done) {
            long kb = rss_kb(o.pid);
            if (kb >= 0) rss.push_back(kb);
            std::this_thread::sleep_for(std::chrono::milliseconds(o.sample_ms));
        }
    });

    std::vector<std::vector<Sample>> per_thread(static_cast<size_t>(o.connections));
    std::vector<std::thread> workers;
    for (int t = 0; t < o.connections; ++t) {
        workers.emplace_back([&, t] {
            std::string buf;
            auto& out = per_thread[static_cast<size_t>(t)];
            for (size_t n = static_cast<size_t>(t); Clock::now() < stop_at; ++n)
                out.push_back(one_request(o, addr, n % o.paths.size(), buf));
        });
    }
    for (auto& w : workers) w.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    done = true;
    sampler.join();
    if (o.pid > 0) {
        long kb = rss_kb(o.pid);
        if (kb >= 0) rss.push_back(kb);
    }

    std::vector<double> all;
    std::vector<std::vector<double>> by_path(o.paths.size());
    std::map<std::string, size_t> errors;
    std::map<int, size_t> statuses;
    size_t failed = 0;
    for (const auto& v : per_thread) {
        for (const auto& s : v) {
            if (s.outcome != Outcome::ok) {
                ++failed;
                switch (s.outcome) {
                    case Outcome::connect_error:
                        ++errors["connect"];
                        break;
                    case Outcome::io_error:
                        ++errors["io"];
                        break;
                    case Outcome::bad_status:
                        ++errors["status"];
                        ++statuses[s.status];
                        break;
                    default:
                        ++errors["short_body"];
                        break;
                }
                continue;
            }
            all.push_back(s.ms);
            by_path[s.path].push_back(s.ms);
        }
    }
    const size_t total = all.size() + failed;
    std::printf("connections=%d\nseconds=%.2f\nrequests=%zu\nerrors=%zu\n", o.connections, elapsed,
                total, failed);
    for (const auto& [kind, n] : errors) std::printf("errors_%s=%zu\n", kind.c_str(), n);
    for (const auto& [status, n] : statuses) std::printf("status_%d=%zu\n", status, n);
    std::printf("requests_per_second=%.0f\n", static_cast<double>(total) / elapsed);
    double p50 = percentile(all, 0.50), p99 = percentile(all, 0.99);
    double max = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
    std::printf("latency_ms_p50=%.3f\nlatency_ms_p99=%.3f\nlatency_ms_max=%.3f\n", p50, p99, max);
    for (size_t i = 0; i < o.paths.size(); ++i) {
        auto& v = by_path[i];
        std::printf("path %s requests=%zu p50_ms=%.3f p99_ms=%.3f\n", o.paths[i].c_str(), v.size(),
                    percentile(v, 0.50), percentile(v, 0.99));
    }
    if (!rss.empty()) {
        const size_t third = std::max<size_t>(rss.size() / 3, 1);
        std::vector<long> first(rss.begin(), rss.begin() + static_cast<std::ptrdiff_t>(third));
        std::vector<long> last(rss.end() - static_cast<std::ptrdiff_t>(third), rss.end());
        std::printf("rss_samples=%zu\nrss_kb_start=%ld\nrss_kb_mid=%ld\nrss_kb_end=%ld\n",
                    rss.size(), rss.front(), rss[rss.size() / 2], rss.back());
        std::printf("rss_kb_max=%ld\nrss_kb_first_third=%ld\nrss_kb_last_third=%ld\n",
                    *std::max_element(rss.begin(), rss.end()), median(first), median(last));
    }
    return failed == 0 ? 0 : 1;
}
