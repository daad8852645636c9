// rdmadiag-serve: `rdmadiag serve` as its own program, for the service unit and for tests that
// run the daemon as a separate process.
// CLI11 2.3's inlined parser trips g++ 12's -Wnull-dereference in this translation unit.
#pragma GCC diagnostic ignored "-Wnull-dereference"

#include "cli/commands/serve.hpp"

int main(int argc, char** argv) {
    rdmadiag::SourceRegistry registry;
    CLI::App app{"rdmadiag serve: RDMA fabric collector with Prometheus /metrics and a JSON API"};
    rdmadiag::ServeFlags flags;
    rdmadiag::add_serve_flags(app, flags, registry);
    CLI11_PARSE(app, argc, argv);
    return rdmadiag::run_serve(flags, registry);
}
