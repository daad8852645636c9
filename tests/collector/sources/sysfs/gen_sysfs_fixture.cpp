// gen-sysfs-fixture: writes a synthetic /sys/class/infiniband tree for benchmarks and side-by-side
// comparisons. Usage: gen_sysfs_fixture DIR [--devices N] [--mlx4 N] [--ports N] [--pkeys N]
//                                           [--gids N] [--no-counters] [--no-hw-counters]

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tests/collector/sources/sysfs/sysfs_tree_writer.hpp"

namespace {
int usage() {
    std::fprintf(stderr,
                 "usage: gen_sysfs_fixture DIR [--devices N] [--mlx4 N] [--ports N] [--pkeys N] "
                 "[--gids N] [--no-counters] [--no-hw-counters]\n"
                 "Writes DIR/class/infiniband/mlx5_<n>/... (defaults: 16 devices x 2 ports, "
                 "128 P_Keys, 8 GIDs, counters and hw_counters), and with --mlx4 N also N "
                 "mlx4_<n> devices with 32-bit counters/ and 64-bit counters_ext/.\n");
    return 2;
}

bool number(const char* text, uint32_t& out) {
    char* end = nullptr;
    unsigned long v = std::strtoul(text, &end, 10);
    if (end == text || *end != '\0' || v > 4096) return false;
    out = static_cast<uint32_t>(v);
    return true;
}
}  // namespace

int main(int argc, char** argv) {
    rdmadiag::test::SysfsTreeSpec spec;
    std::string dir;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&](uint32_t& out) { return i + 1 < argc && number(argv[++i], out); };
        if (a == "--devices") {
            if (!next(spec.devices)) return usage();
        } else if (a == "--mlx4") {
            if (!next(spec.mlx4_devices)) return usage();
        } else if (a == "--ports") {
            if (!next(spec.ports)) return usage();
        } else if (a == "--pkeys") {
            if (!next(spec.pkeys)) return usage();
        } else if (a == "--gids") {
            if (!next(spec.gids)) return usage();
        } else if (a == "--no-counters") {
            spec.counters = false;
        } else if (a == "--no-hw-counters") {
            spec.hw_counters = false;
        } else if (a == "-h" || a == "--help") {
            usage();
            return 0;
        } else if (dir.empty() && !a.empty() && a[0] != '-') {
            dir = a;
        } else {
            return usage();
        }
    }
    if (dir.empty()) return usage();
    auto r = rdmadiag::test::write_sysfs_tree(dir, spec);
    if (!r) {
        std::fprintf(stderr, "gen_sysfs_fixture: %s\n", r.error().message.c_str());
        return 1;
    }
    std::printf("%s/class/infiniband: %u devices x %u ports, %u P_Keys each\n", dir.c_str(),
                spec.devices + spec.mlx4_devices, spec.ports, spec.pkeys);
    return 0;
}
