#pragma once
// The plain-HTTP front door. CivetWeb gives each connection a worker thread from the moment it
// is accepted, so a handful of clients that send their request head a byte at a time (or
// nothing at all) would hold every worker until the request timeout, and everyone else would
// wait behind them. The gate accepts connections on one thread and reads request heads without
// blocking; only a complete head is handed to a relay worker, which passes it (stamped with the
// per-process frontend header, as the TLS frontend does) to the CivetWeb listener on loopback
// and copies the answer back.
//
// Limits: at most `max_pending` connections may be sending their head (the gate raises the
// process's soft descriptor limit to fit them, as far as the hard limit allows, and lowers the
// bound when that is not enough); when one more arrives
// the oldest pending one is closed (a well-behaved client sends its head at once, so it is never
// the oldest). A head must arrive within `timeout` and fit in `max_request_bytes`, or the client
// gets 408 / 431 and is closed. `relays` requests are answered at once; complete heads wait in
// a queue of at most `max_pending`, beyond which clients get 503.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"
#include "collector/runtime/epoll_loop.hpp"

namespace rdmadiag::api {

struct ConnectionGateOptions {
    std::string listen_address;  // HOST:PORT, :PORT or [V6]:PORT; :PORT is every IPv4 address
    int backend_port = 0;        // the CivetWeb listener on 127.0.0.1
    std::string token;           // value of kFrontendHeader
    size_t relays = 16;
    size_t max_pending = 512;
    Duration timeout = std::chrono::seconds(10);
    size_t max_request_bytes = 8192;
};

struct ConnectionGateStats {
    uint64_t accepted = 0;
    uint64_t relayed = 0;
    uint64_t timed_out = 0;  // no complete head within the timeout
    uint64_t oversized = 0;  // head larger than max_request_bytes
    uint64_t evicted = 0;    // oldest pending connection closed to make room
    uint64_t busy = 0;       // 503: the queue of complete heads was full
};

class ConnectionGate {
public:
    explicit ConnectionGate(ConnectionGateOptions options);
    ~ConnectionGate();
    ConnectionGate(const ConnectionGate&) = delete;
    ConnectionGate& operator=(const ConnectionGate&) = delete;

    Result<void> start();
    void stop();
    int port() const { return port_; }
    // How many connections may be pending at once: max_pending, lowered to fit the process's
    // descriptor limit.
    size_t max_pending() const { return max_pending_; }
    ConnectionGateStats stats() const;

private:
    struct Pending {
        std::string head;
        std::chrono::steady_clock::time_point deadline;
    };
    struct Ready {
        int fd;
        std::string head;
    };

    void gate_loop();
    void relay_loop();
    void relay(int client, std::string head);
    void accept_clients();
    void read_head(int fd);
    // Stops watching a pending client; answers `status` first unless it is 0.
    void close_pending(int fd, int status);
    void count(uint64_t ConnectionGateStats::*field);

    ConnectionGateOptions options_;
    size_t max_pending_ = 0;
    common::UniqueFd listen_;
    common::UniqueFd epoll_;
    common::UniqueFd wake_;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::thread gate_;
    std::vector<std::thread> relays_;

    // Gate thread only: pending clients in arrival order, and where each fd sits in that order.
    std::list<std::pair<int, Pending>> pending_;
    std::unordered_map<int, std::list<std::pair<int, Pending>>::iterator> pending_at_;

    mutable std::mutex mutex_;
    std::condition_variable ready_cv_;
    std::deque<Ready> ready_;
    ConnectionGateStats stats_;
};

}  // namespace rdmadiag::api
