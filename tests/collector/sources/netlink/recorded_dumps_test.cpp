// The RDMA netlink parsers on what real kernels answered (tests/fixtures/netlink/KERNEL, recorded
// in the soft-RoCE VM by tests/beds/vm/record-netlink): every device, port, MR and counter that
// iproute2's `rdma -j` showed for the same objects at the same moment is parsed with the same
// values, the resource dumps rdmadiag does not parse yet are whole, well-formed dumps, and a golden
// per kernel (parsed.golden) keeps what was parsed and which attributes the parsers leave unread.
// RDMADIAG_UPDATE_GOLDEN=1 rewrites the goldens.

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "collector/sources/netlink/res_dump_parser.hpp"
#include "tests/collector/sources/netlink/hex_bytes.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::netlink {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

const fs::path kRoot = fs::path(::rdmadiag::test::fixtures_dir()) / "netlink";

std::vector<std::string> kernels() {
    std::vector<std::string> out;
    if (fs::is_directory(kRoot)) {
        for (const auto& e : fs::directory_iterator(kRoot))
            if (e.is_directory()) out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The attribute types (enum rdma_nldev_attr) found at one level of a dump's messages, and one
// level down inside the nests `into`, by level.
using AttrLevels = std::map<std::string, std::set<uint16_t>>;

void collect(std::span<const uint8_t> data, const std::string& level,
             const std::map<uint16_t, std::string>& into, AttrLevels& out) {
    (void)for_each_attr(data, [&](const NlAttr& a) -> Result<void> {
        out[level].insert(a.type);
        if (auto it = into.find(a.type); it != into.end()) {
            collect(a.data, level + "/" + it->second, into, out);
        }
        return {};
    });
}

AttrLevels attributes(std::span<const uint8_t> bytes, uint16_t op,
                      const std::map<uint16_t, std::string>& into = {}) {
    AttrLevels out;
    (void)for_each_message(
        bytes, static_cast<uint16_t>(RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, op)),
        [&](const NlMessage& m) -> Result<void> {
            collect(m.payload, "message", into, out);
            return {};
        },
        op == RDMA_NLDEV_CMD_STAT_GET ? ReplyEnd::ack : ReplyEnd::done);
    return out;
}

// "message: 1 2 3 (read: 1 2)": every attribute type the kernel sent at a level, and the ones
// rdmadiag's parser reads there; what the kernel adds in a new version shows as a golden diff.
void print_levels(std::ostream& out, const AttrLevels& levels,
                  const std::map<std::string, std::set<uint16_t>>& read) {
    for (const auto& [level, types] : levels) {
        out << "  " << level << ":";
        for (auto t : types) out << ' ' << t;
        auto r = read.find(level);
        if (r == read.end()) {
            out << " (not parsed)\n";
            continue;
        }
        out << " (read:";
        for (auto t : types)
            if (r->second.count(t)) out << ' ' << t;
        out << ")\n";
    }
}

std::string owner_text(const NlResOwner& o) {
    if (o.pid) return "pid " + std::to_string(*o.pid);
    return o.kernel_name.empty() ? "gone" : "kernel " + o.kernel_name;
}

void describe_qps(std::ostream& out, const std::vector<uint8_t>& bytes) {
    auto qps = parse_nl_qp_dump(bytes);
    if (!qps) {
        out << " qps: " << qps.error().message << "\n";
        return;
    }
    out << " qps: " << qps->entries.size() << (qps->complete ? ", complete" : ", incomplete")
        << "\n";
    for (const auto& q : qps->entries) {
        out << "  lqpn " << q.qpn << " port " << (q.port ? std::to_string(*q.port) : "-") << ' '
            << qp_type_name(q.type) << ' ' << qp_state_name(q.state) << " owner "
            << owner_text(q.owner) << "\n";
    }
    print_levels(
        out,
        attributes(bytes, RDMA_NLDEV_CMD_RES_QP_GET,
                   {{RDMA_NLDEV_ATTR_RES_QP, "qp"}, {RDMA_NLDEV_ATTR_RES_QP_ENTRY, "entry"}}),
        {{"message", {RDMA_NLDEV_ATTR_RES_QP}},
         {"message/qp", {RDMA_NLDEV_ATTR_RES_QP_ENTRY}},
         {"message/qp/entry",
          {RDMA_NLDEV_ATTR_PORT_INDEX, RDMA_NLDEV_ATTR_RES_LQPN, RDMA_NLDEV_ATTR_RES_TYPE,
           RDMA_NLDEV_ATTR_RES_STATE, RDMA_NLDEV_ATTR_RES_PID, RDMA_NLDEV_ATTR_RES_KERN_NAME,
           RDMA_NLDEV_ATTR_RES_PDN}}});
}

void describe_cm_ids(std::ostream& out, const std::vector<uint8_t>& bytes) {
    auto ids = parse_nl_cm_id_dump(bytes);
    if (!ids) {
        out << " cm_ids: " << ids.error().message << "\n";
        return;
    }
    out << " cm_ids: " << ids->entries.size() << (ids->complete ? ", complete" : ", incomplete")
        << "\n";
    for (const auto& c : ids->entries) {
        out << "  cm-idn " << c.id << " port " << (c.port ? std::to_string(*c.port) : "-") << ' '
            << port_space_name(c.port_space) << ' ' << cm_state_name(c.state) << " src "
            << (c.source ? to_string(*c.source) : "-") << " dst "
            << (c.destination ? to_string(*c.destination) : "-") << " owner " << owner_text(c.owner)
            << "\n";
    }
    print_levels(
        out,
        attributes(
            bytes, RDMA_NLDEV_CMD_RES_CM_ID_GET,
            {{RDMA_NLDEV_ATTR_RES_CM_ID, "cm_id"}, {RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY, "entry"}}),
        {{"message", {RDMA_NLDEV_ATTR_RES_CM_ID}},
         {"message/cm_id", {RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY}},
         {"message/cm_id/entry",
          {RDMA_NLDEV_ATTR_PORT_INDEX, RDMA_NLDEV_ATTR_RES_STATE, RDMA_NLDEV_ATTR_RES_PID,
           RDMA_NLDEV_ATTR_RES_KERN_NAME, RDMA_NLDEV_ATTR_RES_PS, RDMA_NLDEV_ATTR_RES_SRC_ADDR,
           RDMA_NLDEV_ATTR_RES_DST_ADDR, RDMA_NLDEV_ATTR_RES_CM_IDN, RDMA_NLDEV_ATTR_RES_LQPN,
           RDMA_NLDEV_ATTR_RES_TYPE}}});
}

std::string describe(const fs::path& dir) {
    std::ostringstream out;
    auto first_line = [&](const std::string& name) {
        std::ifstream in(dir / name);
        std::string line;
        std::getline(in, line);
        return line;
    };
    out << "kernel " << first_line("kernel") << ", " << first_line("iproute2") << "\n";
    const auto dev_bytes = test::read_hex_file(dir / "dev.hex");
    auto devs = parse_nl_device_dump(dev_bytes);
    if (!devs) return out.str() + "device dump: " + devs.error().message + "\n";
    out << "device dump\n";
    print_levels(
        out, attributes(dev_bytes, RDMA_NLDEV_CMD_GET),
        {{"message",
          {RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME, RDMA_NLDEV_ATTR_DEV_PROTOCOL}}});
    for (const auto& d : *devs) {
        out << "device " << d.index << ' ' << d.name << " protocol " << d.protocol << "\n";
        const auto port_bytes = test::read_hex_file(dir / (d.name + ".ports.hex"));
        auto ports = parse_nl_port_dump(port_bytes);
        if (!ports) {
            out << "  ports: " << ports.error().message << "\n";
            continue;
        }
        out << " port dump\n";
        print_levels(
            out, attributes(port_bytes, RDMA_NLDEV_CMD_PORT_GET),
            {{"message",
              {RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME, RDMA_NLDEV_ATTR_PORT_INDEX,
               RDMA_NLDEV_ATTR_NDEV_INDEX, RDMA_NLDEV_ATTR_NDEV_NAME}}});
        for (const auto& p : *ports) {
            out << " port " << p.port << " netdev " << (p.ndev_name.empty() ? "-" : p.ndev_name);
            if (p.ndev_index) out << " (" << *p.ndev_index << ")";
            out << "\n";
            const auto stat_bytes =
                test::read_hex_file(dir / (d.name + "." + std::to_string(p.port) + ".stats.hex"));
            auto stats = parse_nl_port_stats(stat_bytes);
            if (!stats) {
                out << "  statistics: " << stats.error().message << "\n";
                continue;
            }
            out << "  statistics: " << stats->counters.size() << " counters\n";
            for (const auto& c : stats->counters) out << "   " << c.name << ' ' << c.value << "\n";
            print_levels(out,
                         attributes(stat_bytes, RDMA_NLDEV_CMD_STAT_GET,
                                    {{RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, "hwcounters"},
                                     {RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, "entry"}}),
                         {{"message",
                           {RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME,
                            RDMA_NLDEV_ATTR_PORT_INDEX, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS}},
                          {"message/hwcounters", {RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY}},
                          {"message/hwcounters/entry",
                           {RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME,
                            RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE}}});
        }
        const auto mr_bytes = test::read_hex_file(dir / (d.name + ".mrs.hex"));
        auto mrs = parse_nl_mr_dump(mr_bytes, d.name);
        if (!mrs) {
            out << " mrs: " << mrs.error().message << "\n";
            continue;
        }
        out << " mrs: " << mrs->mrs.size() << (mrs->complete ? ", complete" : ", incomplete")
            << "\n";
        for (const auto& m : mrs->mrs) {
            out << "  mrn " << m.mr << " owner "
                << (m.pid ? "pid " + std::to_string(*m.pid) : "kernel " + m.comm) << " length "
                << (m.length ? std::to_string(*m.length) : "-") << std::hex << " lkey "
                << (m.lkey ? "0x" + (std::ostringstream() << std::hex << *m.lkey).str() : "-")
                << " rkey "
                << (m.rkey ? "0x" + (std::ostringstream() << std::hex << *m.rkey).str() : "-")
                << std::dec << "\n";
        }
        const std::map<uint16_t, std::string> mr_nests{{RDMA_NLDEV_ATTR_RES_MR, "mr"},
                                                       {RDMA_NLDEV_ATTR_RES_MR_ENTRY, "entry"}};
        print_levels(
            out, attributes(mr_bytes, RDMA_NLDEV_CMD_RES_MR_GET, mr_nests),
            {{"message", {RDMA_NLDEV_ATTR_RES_MR}},
             {"message/mr", {RDMA_NLDEV_ATTR_RES_MR_ENTRY}},
             {"message/mr/entry",
              {RDMA_NLDEV_ATTR_RES_MRN, RDMA_NLDEV_ATTR_RES_PID, RDMA_NLDEV_ATTR_RES_KERN_NAME,
               RDMA_NLDEV_ATTR_RES_MRLEN, RDMA_NLDEV_ATTR_RES_LKEY, RDMA_NLDEV_ATTR_RES_RKEY}}});
        describe_qps(out, test::read_hex_file(dir / (d.name + ".qps.hex")));
        describe_cm_ids(out, test::read_hex_file(dir / (d.name + ".cm_ids.hex")));
    }
    return out.str();
}

TEST(RecordedDumps, SeveralKernelsAreRecorded) {
    EXPECT_GE(kernels().size(), 3u) << "in " << kRoot;
}

class RecordedKernel : public ::testing::TestWithParam<std::string> {
protected:
    fs::path dir() const { return kRoot / GetParam(); }
    std::vector<uint8_t> bytes(const std::string& name) const {
        EXPECT_TRUE(fs::exists(dir() / name)) << name;
        return test::read_hex_file(dir() / name);
    }
    Json rdma(const std::string& name) const {
        std::ifstream in(dir() / (name + ".json"));
        return Json::parse(in);
    }
    std::vector<NlDevice> devices() const {
        auto d = parse_nl_device_dump(bytes("dev.hex"));
        EXPECT_TRUE(d.ok()) << (d ? "" : d.error().message);
        return d ? *d : std::vector<NlDevice>{};
    }
};

uint32_t hex_u32(const Json& j) {
    return static_cast<uint32_t>(std::stoul(j.get<std::string>(), nullptr, 16));
}

TEST_P(RecordedKernel, DevicesAreWhatRdmaShows) {
    std::set<std::pair<uint32_t, std::string>> parsed;
    for (const auto& d : devices()) {
        parsed.emplace(d.index, d.name);
        EXPECT_FALSE(d.protocol.empty()) << d.name;
    }
    std::set<std::pair<uint32_t, std::string>> shown;
    for (const auto& d : rdma("rdma-dev")) shown.emplace(d["ifindex"], d["ifname"]);
    EXPECT_EQ(parsed, shown);
    EXPECT_FALSE(parsed.empty());
}

TEST_P(RecordedKernel, PortsAreWhatRdmaShows) {
    for (const auto& d : devices()) {
        auto ports = parse_nl_port_dump(bytes(d.name + ".ports.hex"));
        ASSERT_TRUE(ports.ok()) << ports.error().message;
        std::vector<NlPort> shown;
        for (const auto& l : rdma("rdma-link")) {
            if (l["ifname"] != d.name) continue;
            NlPort p{d.index, d.name, l["port"], std::nullopt, ""};
            if (l.contains("netdev")) {
                p.ndev_index = l["netdev_index"];
                p.ndev_name = l["netdev"];
            }
            shown.push_back(p);
        }
        EXPECT_EQ(*ports, shown) << d.name;
    }
}

TEST_P(RecordedKernel, MrsAreWhatRdmaShows) {
    for (const auto& d : devices()) {
        auto inv = parse_nl_mr_dump(bytes(d.name + ".mrs.hex"), d.name);
        ASSERT_TRUE(inv.ok()) << inv.error().message;
        EXPECT_TRUE(inv->complete);
        std::vector<MrInventory::Entry> shown;
        for (const auto& m : rdma("rdma-res-mr")) {
            if (m["ifname"] != d.name) continue;
            MrInventory::Entry e;
            e.mr = m["mrn"];
            if (m.contains("pid")) e.pid = m["pid"];
            if (!m.contains("pid"))
                e.comm = m["comm"];  // a kernel ULP's name comes from the kernel
            if (m.contains("mrlen")) e.length = m["mrlen"];
            if (m.contains("lkey")) e.lkey = hex_u32(m["lkey"]);
            if (m.contains("rkey")) e.rkey = hex_u32(m["rkey"]);
            shown.push_back(e);
        }
        EXPECT_EQ(inv->mrs, shown) << d.name;
        // record_netlink registered three MRs on every device.
        EXPECT_GE(inv->mrs.size(), 3u) << d.name;
    }
}

TEST_P(RecordedKernel, CountersAreWhatRdmaShows) {
    const Json shown = rdma("rdma-statistic");
    for (const auto& d : devices()) {
        auto ports = parse_nl_port_dump(bytes(d.name + ".ports.hex"));
        ASSERT_TRUE(ports.ok());
        for (const auto& p : *ports) {
            auto stats =
                parse_nl_port_stats(bytes(d.name + "." + std::to_string(p.port) + ".stats.hex"));
            ASSERT_TRUE(stats.ok()) << stats.error().message;
            EXPECT_EQ(stats->device, d.name);
            EXPECT_EQ(stats->device_index, d.index);
            EXPECT_EQ(stats->port, p.port);
            std::vector<NlCounter> expected;
            for (const auto& s : shown) {
                if (s["ifname"] != d.name || s["port"] != p.port) continue;
                for (const auto& [name, value] : s.items()) {
                    if (name != "ifname" && name != "port") expected.push_back({name, value});
                }
            }
            EXPECT_EQ(stats->counters, expected) << d.name << "/" << p.port;
            EXPECT_FALSE(expected.empty());
        }
    }
}

// Every QP `rdma resource show qp` listed, with the same number, port, type, state and owner.
TEST_P(RecordedKernel, QpsAreWhatRdmaShows) {
    for (const auto& d : devices()) {
        auto qps = parse_nl_qp_dump(bytes(d.name + ".qps.hex"));
        ASSERT_TRUE(qps.ok()) << qps.error().message;
        EXPECT_TRUE(qps->complete);
        std::vector<std::string> parsed, shown;
        for (const auto& q : qps->entries) {
            parsed.push_back(std::to_string(q.qpn) + " " +
                             (q.port ? std::to_string(*q.port) : "-") + " " +
                             std::string(qp_type_name(q.type)) + " " +
                             std::string(qp_state_name(q.state)) + " " + owner_text(q.owner));
        }
        for (const auto& q : rdma("rdma-res-qp")) {
            if (q["ifname"] != d.name) continue;
            const std::string owner = q.contains("pid")
                                          ? "pid " + std::to_string(q["pid"].get<uint32_t>())
                                          : "kernel " + q["comm"].get<std::string>();
            shown.push_back(std::to_string(q["lqpn"].get<uint32_t>()) + " " +
                            (q.contains("port") ? std::to_string(q["port"].get<uint32_t>()) : "-") +
                            " " + q["type"].get<std::string>() + " " +
                            q["state"].get<std::string>() + " " + owner);
        }
        EXPECT_EQ(parsed, shown) << d.name;
        // record_netlink made an RC and a UD QP; the GSI QP is the kernel's.
        EXPECT_GE(parsed.size(), 3u) << d.name;
    }
}

// Every CM ID `rdma resource show cm_id` listed: number, port, port space, state, addresses and
// owner, in iproute2's own text.
TEST_P(RecordedKernel, CmIdsAreWhatRdmaShows) {
    for (const auto& d : devices()) {
        auto ids = parse_nl_cm_id_dump(bytes(d.name + ".cm_ids.hex"));
        ASSERT_TRUE(ids.ok()) << ids.error().message;
        EXPECT_TRUE(ids->complete);
        std::vector<std::string> parsed, shown;
        for (const auto& c : ids->entries) {
            ASSERT_TRUE(c.source && c.destination);
            parsed.push_back(std::to_string(c.id) + " " + (c.port ? std::to_string(*c.port) : "-") +
                             " " + std::string(port_space_name(c.port_space)) + " " +
                             std::string(cm_state_name(c.state)) + " " + to_string(*c.source) +
                             " " + to_string(*c.destination) + " " + owner_text(c.owner));
        }
        for (const auto& c : rdma("rdma-res-cm_id")) {
            if (c["ifname"] != d.name) continue;
            const std::string owner = c.contains("pid")
                                          ? "pid " + std::to_string(c["pid"].get<uint32_t>())
                                          : "kernel " + c["comm"].get<std::string>();
            shown.push_back(std::to_string(c["cm-idn"].get<uint32_t>()) + " " +
                            (c.contains("port") ? std::to_string(c["port"].get<uint32_t>()) : "-") +
                            " " + c["ps"].get<std::string>() + " " + c["state"].get<std::string>() +
                            " " + c["src-addr"].get<std::string>() + " " +
                            c["dst-addr"].get<std::string>() + " " + owner);
        }
        EXPECT_EQ(parsed, shown) << d.name;
        // rping and udaddy were listening.
        EXPECT_GE(parsed.size(), 2u) << d.name;
    }
}

TEST_P(RecordedKernel, MatchesGolden) {
    const std::string got = describe(dir());
    const fs::path golden = dir() / "parsed.golden";
    if (std::getenv("RDMADIAG_UPDATE_GOLDEN") != nullptr) {
        std::ofstream(golden) << got;
        GTEST_SKIP() << "golden written: " << golden;
    }
    std::ifstream in(golden);
    const std::string want(std::istreambuf_iterator<char>(in), {});
    EXPECT_EQ(got, want) << "golden: " << golden;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string out = info.param;
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return out;
}

INSTANTIATE_TEST_SUITE_P(Kernels, RecordedKernel, ::testing::ValuesIn(kernels()), test_name);

}  // namespace
}  // namespace rdmadiag::netlink
