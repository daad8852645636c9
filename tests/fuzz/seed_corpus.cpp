// Writes each fuzz target's seed corpus into <root>/<target>/seeds (and makes <root>/<target>/found
// for what fuzzing adds): the test fixtures as they are (sysfs value files, trace logs,
// recordings, scenarios, API snapshots), recording lines one by one for the JSON readers, the
// MADs captured on the ibsim bed and answers built like them, netlink dumps laid out as the
// kernel sends them, probe rings as the probe writes them, and the seeds checked in under
// tests/fuzz/corpus/<target>/ (hand-made ones and regression inputs of fixed crashes).
// Usage: fuzz_seed_corpus ROOT

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "collector/probe/include/rdmadiag_probe_layout.h"
#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/pma_attributes.hpp"
#include "collector/sources/mad/sa_records.hpp"
#include "tests/collector/sources/mad/captured_mads.hpp"
#include "tests/collector/sources/netdev/rtnl_bytes.hpp"
#include "tests/collector/sources/netlink/hex_bytes.hpp"
#include "tests/collector/sources/netlink/nl_builder.hpp"
#include "tests/support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace rdmadiag;

namespace {

const fs::path kSource = ::rdmadiag::test::source_dir();
const fs::path kFixtures = kSource / "tests/fixtures";

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Seeds are named by a hash of their bytes, so the same value file under many ports is one seed.
class Corpus {
public:
    Corpus(const fs::path& root, const std::string& target) : dir_(root / target / "seeds") {
        fs::create_directories(dir_);
        fs::create_directories(root / target / "found");
        add_dir(kSource / "tests/fuzz/corpus" / target);
    }
    void add(std::string_view bytes) {
        uint64_t h = 1469598103934665603ULL;
        for (char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
        char name[24];
        std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h));
        std::ofstream(dir_ / name, std::ios::binary)
            .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        ++count_;
    }
    void add(std::span<const uint8_t> bytes) {
        add(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    }
    void add_file(const fs::path& p) { add(read_file(p)); }
    // Every regular file under `dir` (recursively); follows nothing outside it.
    void add_dir(const fs::path& dir, const std::string& ext = "") {
        if (!fs::is_directory(dir)) return;
        for (const auto& e : fs::recursive_directory_iterator(dir)) {
            if (!e.is_regular_file() || e.is_symlink()) continue;
            if (!ext.empty() && e.path().extension() != ext) continue;
            add_file(e.path());
        }
    }
    // The first line of each kind of observation in a recording (and its header): a recording
    // repeats a few kinds thousands of times.
    void add_line_kinds(const fs::path& p) {
        std::ifstream in(p);
        std::set<std::string> kinds;
        for (std::string line; std::getline(in, line);) {
            size_t k = line.find("\"kind\":\"");
            std::string kind =
                k == std::string::npos ? "" : line.substr(k, line.find('"', k + 8) - k);
            if (!line.empty() && kinds.insert(kind).second) add(line);
        }
    }
    size_t count() const { return count_; }

private:
    fs::path dir_;
    size_t count_ = 0;
};

std::vector<uint8_t> as_response(std::span<const uint8_t> request, uint8_t method) {
    std::vector<uint8_t> mad(request.begin(), request.end());
    mad[3] = method;
    return mad;
}

void mad_seeds(Corpus& c) {
    using namespace rdmadiag::mad;
    for (const auto* m : {&captured::kPortInfoLid5Port1, &captured::kNodeInfoSwitch1,
                          &captured::kSwitchInfoSwitch1, &captured::kPortCountersLid5Port1}) {
        c.add(std::span<const uint8_t>(*m));
    }
    // P_KeyTable block 0 of a CA port: default and one limited partition.
    auto pkeys = as_response(build_lid_smp({Method::get, attr::pkey_table, 0, 0}, 7), 0x81);
    put16(pkeys, 64, 0xffff);
    put16(pkeys, 66, 0x8001);
    put16(pkeys, 68, 0x0002);
    c.add(pkeys);
    // NodeDescription over a directed route, D bit set.
    auto dr = build_dr_smp({Method::get, attr::node_description, 0, 0}, {1, 3}, 9);
    auto desc = as_response(*dr, 0x81);
    put16(desc, 4, 0x8000);
    const char name[] = "Hca2 HCA-1";
    std::copy(name, name + sizeof name - 1, desc.begin() + 64);
    c.add(desc);
    // PMA ClassPortInfo with PortCountersExtended and PortXmitWait, and a PortCountersExtended.
    auto cpi = as_response(build_pma_get(attr::class_port_info, 0, {}, 11), 0x81);
    put8(cpi, 64, 1);
    put8(cpi, 65, 1);
    put16(cpi, 66, (1u << 9) | (1u << 12));
    put32(cpi, 68, 18);
    c.add(cpi);
    auto ext =
        as_response(build_pma_get(attr::port_counters_ext, 0, port_select_payload(1), 12), 0x81);
    for (size_t off = 72; off < 136; off += 8) put64(ext, off, 0x0000000100000000ULL + off);
    c.add(ext);
    // SA GetTable answers: two NodeRecords, a PortInfoRecord, a PKeyTableRecord.
    auto nodes =
        as_response(build_sa_query(Method::get_table, attr::node_record, 0, {}, 0, 13), 0x92);
    nodes.resize(kSaHeaderEnd + 2 * 112, 0);
    put16(nodes, 44, 112 / 8);
    for (size_t i = 0; i < 2; ++i) {
        size_t r = kSaHeaderEnd + i * 112;
        put16(nodes, r, static_cast<uint16_t>(2 + i));
        std::copy(captured::kNodeInfoSwitch1.begin() + 64, captured::kNodeInfoSwitch1.begin() + 104,
                  nodes.begin() + static_cast<std::ptrdiff_t>(r + 4));
        nodes[r + 44] = 'S';
    }
    c.add(nodes);
    auto ports =
        as_response(build_sa_query(Method::get_table, attr::port_info_record, 0, {}, 0, 14), 0x92);
    put16(ports, 44, 72 / 8);
    put16(ports, kSaHeaderEnd, 5);
    ports[kSaHeaderEnd + 2] = 1;
    std::copy(captured::kPortInfoLid5Port1.begin() + 64, captured::kPortInfoLid5Port1.begin() + 128,
              ports.begin() + kSaHeaderEnd + 4);
    c.add(ports);
    auto table = as_response(build_sa_query(Method::get_table, attr::pkey_table_record, 7,
                                            pkey_table_record_template(5, 0, 1), 0, 15),
                             0x92);
    put16(table, 44, 72 / 8);
    put16(table, kSaHeaderEnd + 8, 0xffff);
    put16(table, kSaHeaderEnd + 10, 0x8001);
    c.add(table);
}

void netlink_seeds(Corpus& c) {
    test::NlBuilder devices;
    devices.begin(RDMA_NLDEV_CMD_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 0)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0")
        .end()
        .begin(RDMA_NLDEV_CMD_GET)
        .u32(RDMA_NLDEV_ATTR_DEV_INDEX, 3)
        .str(RDMA_NLDEV_ATTR_DEV_NAME, "rxe0")
        .end()
        .done();
    c.add(devices.bytes());

    test::NlBuilder mrs;
    mrs.begin(RDMA_NLDEV_CMD_RES_MR_GET).nest(RDMA_NLDEV_ATTR_RES_MR);
    mrs.mr_entry(4, 1234, 1 << 20).mr_entry(5, 1234, 4096);
    mrs.nest(RDMA_NLDEV_ATTR_RES_MR_ENTRY)
        .u32(RDMA_NLDEV_ATTR_RES_MRN, 9)
        .str(RDMA_NLDEV_ATTR_RES_KERN_NAME, "rpcrdma")
        .u32(RDMA_NLDEV_ATTR_RES_LKEY, 0x1234)
        .u32(RDMA_NLDEV_ATTR_RES_RKEY, 0x5678)
        .unnest();
    mrs.unnest().end().done();
    c.add(mrs.bytes());

    test::NlBuilder interrupted;
    interrupted.begin(RDMA_NLDEV_CMD_RES_MR_GET, NLM_F_MULTI | NLM_F_DUMP_INTR)
        .nest(RDMA_NLDEV_ATTR_RES_MR)
        .mr_entry(1, 1, 8192)
        .unnest()
        .end()
        .done();
    c.add(interrupted.bytes());

    test::NlBuilder error;
    error.error(-95);
    c.add(error.bytes());

    // What real kernels answered (tests/fixtures/netlink/KERNEL/*.hex).
    for (const auto& e : fs::recursive_directory_iterator(kFixtures / "netlink")) {
        if (e.is_regular_file() && e.path().extension() == ".hex")
            c.add(test::read_hex_file(e.path()));
    }
}

void netdev_seeds(Corpus& c) {
    using namespace rdmadiag::netdev;
    Link bond = test::ether(4, "bond0", {2, 0, 0, 0, 0, 0x20});
    bond.kind = "bond";
    bond.bond_active_slave = 2;
    Link slave = test::ether(2, "eth0", {2, 0, 0, 0, 0, 0x10});
    slave.master = 4;
    Link vlan = test::ether(5, "bond0.7", {2, 0, 0, 0, 0, 0x20});
    vlan.kind = "vlan";
    vlan.link = 4;
    c.add(test::link_dump({slave, bond, vlan}));
    c.add(test::address_dump({test::ipv4(4, 192, 0, 2, 4),
                              test::ipv6(5, "2001:db8::5", IFA_F_PERMANENT | IFA_F_TENTATIVE),
                              test::ipv6(2, "fe80::10", IFA_F_PERMANENT | IFA_F_DADFAILED)}));
    c.add(test::port_dump({netlink::NlPort{4, "rxe0", 1, 3u, "dum0"},
                           netlink::NlPort{1, "mlx5_0", 1, std::nullopt, ""}}));
}

struct Ring {
    std::vector<uint8_t> bytes;
    rdmadiag_probe_ring_header* header() {
        return reinterpret_cast<rdmadiag_probe_ring_header*>(bytes.data());
    }
    rdmadiag_probe_record* record(size_t slot) {
        return reinterpret_cast<rdmadiag_probe_record*>(bytes.data() + RDMADIAG_RING_HEADER_SIZE) +
               slot;
    }
};

Ring make_ring(uint32_t capacity, uint32_t clock) {
    Ring r;
    r.bytes.assign(RDMADIAG_RING_HEADER_SIZE + capacity * sizeof(rdmadiag_probe_record), 0);
    auto* h = r.header();
    h->magic = RDMADIAG_PROBE_MAGIC;
    h->version = RDMADIAG_PROBE_VERSION;
    h->record_size = sizeof(rdmadiag_probe_record);
    h->capacity = capacity;
    h->clock = clock;
    h->tid = 4242;
    return r;
}

void put_record(Ring& ring, uint64_t pos, uint8_t kind, uint8_t op, uint8_t status, uint32_t lkey) {
    rdmadiag_probe_record rec{};
    rec.seq = static_cast<uint32_t>(pos);
    rec.kind = kind;
    rec.op = op;
    rec.status = status;
    rec.device = 0;
    rec.lkey = lkey;
    rec.rkey = lkey + 1;
    rec.stamp = 1000 + pos;
    rec.check = rdmadiag_record_check(&rec);
    *ring.record(pos & (ring.header()->capacity - 1)) = rec;
}

void probe_seeds(Corpus& c) {
    // A ring with a registration, a post, its completion and a deregistration.
    Ring ring = make_ring(8, RDMADIAG_CLOCK_MONOTONIC);
    put_record(ring, 0, RDMADIAG_REC_REG, 0, 0, 0x100);
    put_record(ring, 1, RDMADIAG_REC_POST, 1, 0, 0x100);
    put_record(ring, 2, RDMADIAG_REC_COMPLETION, 1, 5, 0x100);
    put_record(ring, 3, RDMADIAG_REC_DEREG, 0, 0, 0x100);
    ring.header()->head = 4;
    c.add(ring.bytes);
    // The same ring after the producer went on: head moves on by wrapping (8 bytes after the ring).
    for (uint64_t pos = 4; pos < 11; ++pos) put_record(ring, pos, RDMADIAG_REC_POST, 2, 0, 0x200);
    std::vector<uint8_t> moving = ring.bytes;
    uint64_t later = 11;
    moving.insert(moving.end(), reinterpret_cast<uint8_t*>(&later),
                  reinterpret_cast<uint8_t*>(&later) + 8);
    c.add(moving);
    // A wrapped TSC ring whose reader was half-way, with a stale slot among fresh ones.
    Ring wrapped = make_ring(4, RDMADIAG_CLOCK_TSC);
    for (uint64_t pos = 6; pos < 10; ++pos)
        put_record(wrapped, pos, RDMADIAG_REC_COMPLETION, 2, 0, 0x300);
    put_record(wrapped, 3, RDMADIAG_REC_REG, 0, 0, 0x300);
    wrapped.header()->tail = 6;
    wrapped.header()->head = 10;
    wrapped.header()->closed = 1;
    c.add(wrapped.bytes);
}

// Chunks of probe_messages_fuzz: [kind][message length][message][ring length][ring].
void put_chunk(std::vector<uint8_t>& out, uint8_t kind, const rdmadiag_probe_msg& m,
               const std::vector<uint8_t>& ring) {
    out.push_back(kind);
    out.push_back(static_cast<uint8_t>(sizeof m));
    out.push_back(static_cast<uint8_t>(sizeof m >> 8));
    const auto* p = reinterpret_cast<const uint8_t*>(&m);
    out.insert(out.end(), p, p + sizeof m);
    if (kind & 1) {
        out.push_back(static_cast<uint8_t>(ring.size()));
        out.push_back(static_cast<uint8_t>(ring.size() >> 8));
        out.insert(out.end(), ring.begin(), ring.end());
    }
}

void probe_message_seeds(Corpus& c) {
    rdmadiag_probe_msg device{};
    device.magic = RDMADIAG_PROBE_MAGIC;
    device.version = RDMADIAG_PROBE_VERSION;
    device.type = RDMADIAG_MSG_DEVICE;
    device.arg = 0;
    std::strcpy(device.name, "mlx5_0");
    Ring ring = make_ring(8, RDMADIAG_CLOCK_MONOTONIC);
    put_record(ring, 0, RDMADIAG_REC_REG, 0, 0, 0x100);
    put_record(ring, 1, RDMADIAG_REC_POST, 1, 0, 0x100);
    put_record(ring, 2, RDMADIAG_REC_COMPLETION, 1, 5, 0x100);
    ring.header()->head = 3;
    rdmadiag_probe_msg ring_msg = device;
    ring_msg.type = RDMADIAG_MSG_RING;
    ring_msg.arg = static_cast<uint32_t>(ring.bytes.size());
    std::memset(ring_msg.name, 0, sizeof ring_msg.name);

    std::vector<uint8_t> good;
    put_chunk(good, 0, device, {});
    put_chunk(good, 1 | 4, ring_msg, ring.bytes);
    c.add(good);
    // A ring message with a pipe besides the ring, and one whose ring lies about its head.
    std::vector<uint8_t> odd;
    put_chunk(odd, 1 | 2, ring_msg, ring.bytes);
    ring.header()->head = 100;
    put_chunk(odd, 1, ring_msg, ring.bytes);
    c.add(odd);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s ROOT\n", argv[0]);
        return 2;
    }
    const fs::path root = argv[1];
    const std::vector<std::pair<std::string, std::function<void(Corpus&)>>> targets = {
        {"sysfs_value_fuzz",
         [](Corpus& c) {
             c.add_dir(kFixtures / "sysfs/mlx5-ib");
             c.add_dir(kFixtures / "sysfs/rxe-roce");
             c.add_dir(kFixtures / "sysfs/no-pma");
             c.add_dir(kFixtures / "sysfs/broken");
         }},
        {"trace_line_fuzz", [](Corpus& c) { c.add_dir(kFixtures / "tracefs", ".trace"); }},
        {"partitions_conf_fuzz", [](Corpus& c) { c.add_dir(kFixtures / "partitions", ".conf"); }},
        {"mad_reply_fuzz", mad_seeds},
        {"nl_reply_fuzz", netlink_seeds},
        {"rtnl_dump_fuzz", netdev_seeds},
        {"probe_ring_fuzz", probe_seeds},
        {"probe_messages_fuzz", probe_message_seeds},
        {"recording_reader_fuzz", [](Corpus& c) { c.add_dir(kFixtures / "recordings", ".jsonl"); }},
        {"json_readers_fuzz",
         [](Corpus& c) {
             c.add_dir(kFixtures / "api", ".json");
             for (const auto& e : fs::directory_iterator(kFixtures / "recordings"))
                 c.add_line_kinds(e.path());
         }},
        {"scenario_fuzz",
         [](Corpus& c) {
             c.add_dir(kSource / "collector/sim/scenarios", ".scn");
             c.add_dir(kSource / "tests/exporters/scenarios", ".scn");
         }},
        {"config_file_fuzz", [](Corpus&) {}},
        {"srp_host_fuzz", [](Corpus&) {}},  // the hand-made seeds in tests/fuzz/corpus only
        {"api_request_fuzz", [](Corpus&) {}},
    };
    for (const auto& [name, fill] : targets) {
        Corpus corpus(root, name);
        fill(corpus);
        std::printf("%-24s %zu seeds\n", name.c_str(), corpus.count());
    }
    return 0;
}
