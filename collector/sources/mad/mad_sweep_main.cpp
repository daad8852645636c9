// rdmadiag-mad-sweep: one MAD sweep with the "mad" source, printed one fact per line, for the
// test bed and the side-by-side benchmark until the rdmadiag CLI takes it over.
//   rdmadiag-mad-sweep [--mad.scope=subnet] [--mad.sm_key=0x1] [--mad.timeout=200ms] ...
//   [--repeat=N]
// Lines: "state DEV:PORT lid=L state=S phys=P [peer=guid:0xGUID:PORT] [rate="40 Gb/sec (4X QDR)"]"
//        (the port at the other end of the link, and the link's rate, where the sweep saw one),
//        "pkeys DEV:PORT VIEW k0 k1 ...",
//        "counter DEV:PORT KIND NAME VALUE WIDTH", "error SUBJECT: MESSAGE", "# stats ...".

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "collector/model/pkey.hpp"
#include "collector/sources/mad/mad_options.hpp"
#include "collector/sources/mad/mad_source.hpp"

using namespace rdmadiag;

namespace {

void print(const Observation& obs) {
    std::visit(
        [](const auto& b) {
            using T = std::decay_t<decltype(b)>;
            if constexpr (std::is_same_v<T, PortStateSample>) {
                std::cout << "state " << b.port.to_string() << " lid=" << b.lid.value_or(0)
                          << " state=" << static_cast<int>(b.state ? static_cast<int>(*b.state) : 0)
                          << " phys=" << static_cast<int>(b.phys_state.value_or(0));
                if (b.peer_node_guid && b.peer_port) {
                    char peer[48];
                    std::snprintf(peer, sizeof peer, " peer=guid:0x%016llx:%u",
                                  static_cast<unsigned long long>(*b.peer_node_guid), *b.peer_port);
                    std::cout << peer;
                }
                if (b.rate) std::cout << " rate=\"" << *b.rate << "\"";
                std::cout << "\n";
            } else if constexpr (std::is_same_v<T, PKeyTableSample>) {
                std::cout << "pkeys " << b.port.to_string() << " " << to_string(b.view);
                for (size_t i = 0; i < b.table.keys.size(); ++i) {
                    bool bad = std::find(b.table.unreadable.begin(), b.table.unreadable.end(), i) !=
                               b.table.unreadable.end();
                    std::cout << " " << (bad ? std::string("?") : format_pkey(b.table.keys[i]));
                }
                std::cout << "\n";
            } else if constexpr (std::is_same_v<T, CounterSample>) {
                std::cout << "counter " << b.port.to_string() << " " << to_string(b.kind) << " "
                          << b.name << " " << b.value << " " << static_cast<int>(b.width) << "\n";
            } else if constexpr (std::is_same_v<T, SampleError>) {
                std::cout << "error " << b.subject << ": " << b.message << "\n";
            } else if constexpr (std::is_same_v<T, SourceStatus>) {
                if (!b.up) std::cout << "down " << b.reason << "\n";
            } else if constexpr (std::is_same_v<T, DeviceInfo>) {
                std::cout << "device " << b.device << " type=" << b.node_type.value_or("?")
                          << " lid=" << b.lid.value_or(0) << " desc=" << b.node_desc.value_or("")
                          << "\n";
            }
        },
        obs.body);
}

// Prints and counts each observation as the sweep hands it over: a subnet's worth of
// observations is never held at once.
class PrintingSink final : public sources::ObservationSink {
public:
    explicit PrintingSink(bool quiet) : quiet_(quiet) {}
    void emit(Observation obs) override {
        if (!quiet_) print(obs);
        if (std::holds_alternative<PKeyTableSample>(obs.body)) ++tables;
        if (std::holds_alternative<CounterSample>(obs.body)) ++counters;
        if (std::holds_alternative<SampleError>(obs.body)) ++errors;
        if (auto* s = std::get_if<SourceStatus>(&obs.body); s && !s->up) down = true;
    }
    size_t tables = 0, counters = 0, errors = 0;
    bool down = false;

private:
    bool quiet_;
};

}  // namespace

int main(int argc, char** argv) {
    sources::SourceSettings settings;
    int repeat = 1;
    bool quiet = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto eq = arg.find('=');
        if (!arg.starts_with("--") || eq == std::string::npos) {
            if (arg == "--quiet") {
                quiet = true;
                continue;
            }
            std::cerr << "usage: rdmadiag-mad-sweep [--mad.KEY=VALUE ...] [--repeat=N] [--quiet]\n";
            return 2;
        }
        std::string key = arg.substr(2, eq - 2), value = arg.substr(eq + 1);
        if (key == "repeat") {
            repeat = std::max(1, std::atoi(value.c_str()));
        } else {
            settings.extra[key] = value;
        }
    }
    if (auto r = sources::resolve_source_options("mad", mad::mad_options(), settings); !r) {
        std::cerr << "rdmadiag-mad-sweep: " << r.error().message << "\n";
        return 2;
    }
    auto source = mad::make_mad_source(settings);
    if (!source) {
        std::cerr << "rdmadiag-mad-sweep: " << source.error().message << "\n";
        return 2;
    }
    auto avail = (*source)->availability();
    if (!avail.available) {
        std::cerr << "rdmadiag-mad-sweep: mad source unavailable: " << avail.reason << "\n";
        return 3;
    }
    int status = 0;
    const TimePoint first = SystemClock().now();
    for (int r = 0; r < repeat; ++r) {
        PrintingSink sink(quiet);
        auto t0 = std::chrono::steady_clock::now();
        // A day apart on the source's clock: every part of a subnet sweep (discovery, tables,
        // counters) is due again on each repeat, whatever its schedule.
        (*source)->poll(first + std::chrono::hours(24) * r, sink);
        auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                      .count();
        const size_t tables = sink.tables, counters = sink.counters, errors = sink.errors;
        if (sink.down) status = 1;
        const auto& st = static_cast<mad::MadSource&>(**source).last_stats();
        std::printf(
            "# sweep %d: %.1f ms, %zu P_Key tables, %zu counters, %zu errors, %llu MADs sent, "
            "%llu answered, %llu retries, %llu timeouts\n",
            r + 1, ms, tables, counters, errors, static_cast<unsigned long long>(st.sent),
            static_cast<unsigned long long>(st.answered),
            static_cast<unsigned long long>(st.retries),
            static_cast<unsigned long long>(st.timeouts));
    }
    return status;
}
