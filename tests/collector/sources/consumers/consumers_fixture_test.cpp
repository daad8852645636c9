// The consumers source on a host made of recorded and documented data (tests/fixtures/consumers/
// ib-host/README.md): an InfiniBand HCA, mlx5_0, whose IPoIB interfaces, SRP hosts, QPs and RDMA
// CM IDs are written from the kernel's attributes, beside the soft-RoCE device rxe0 whose QP and
// CM ID dumps are the bytes four kernels sent in the VM bed (tests/fixtures/netlink/). The sysfs
// source reads mlx5_0's P_Key and GID tables from tests/fixtures/sysfs/mlx5-ib; the engine judges
// both; what `rdmadiag consumers` would print, and the consumer findings, are compared with one
// golden file per kernel (RDMADIAG_UPDATE_GOLDEN=1 rewrites them).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <linux/if.h>
#include <linux/if_arp.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/render/consumers_render.hpp"
#include "collector/engine/default/default_engine.hpp"
#include "collector/json/checked_json.hpp"
#include "collector/sources/consumers/consumers_options.hpp"
#include "collector/sources/consumers/consumers_source.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "tests/collector/sources/netdev/rtnl_bytes.hpp"
#include "tests/collector/sources/netlink/hex_bytes.hpp"
#include "tests/collector/sources/netlink/rdma_port_dump.hpp"
#include "tests/collector/sources/netlink/res_dump_bytes.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::consumers {
namespace {

namespace fs = std::filesystem;
using json = codec::Json;

const fs::path kHost = fs::path(test::fixtures_dir()) / "consumers/ib-host";

json read_json(const fs::path& path) {
    std::ifstream in(path);
    return json::parse(in);
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A value by the name the parser prints for it (the enum's name in iproute2's rdma tool).
template <class Name>
uint8_t value_named(const std::string& name, Name name_of) {
    for (unsigned v = 0; v < 256; ++v) {
        if (name_of(static_cast<uint8_t>(v)) == name) return static_cast<uint8_t>(v);
    }
    ADD_FAILURE() << "no value is named " << name;
    return 0;
}

uint32_t port_space_named(const std::string& name) {
    for (uint32_t ps : {0x0002u, 0x0106u, 0x0111u, 0x013fu}) {
        if (netlink::port_space_name(ps) == name) return ps;
    }
    ADD_FAILURE() << "no port space is named " << name;
    return 0;
}

template <size_t N>
std::array<uint8_t, N> bytes_of(const std::string& text) {
    std::array<uint8_t, N> out{};
    size_t i = 0;
    std::istringstream in(text);
    std::string byte;
    while (std::getline(in, byte, ':') && i < N)
        out[i++] = static_cast<uint8_t>(std::stoul(byte, nullptr, 16));
    EXPECT_EQ(i, N) << text;
    return out;
}

netdev::Link link_from(const json& j) {
    netdev::Link l;
    l.index = j.at("ifindex").get<int32_t>();
    l.name = j.at("IFLA_IFNAME").get<std::string>();
    const std::string type = j.at("type").get<std::string>();
    l.type = type == "ARPHRD_INFINIBAND" ? ARPHRD_INFINIBAND
             : type == "ARPHRD_LOOPBACK" ? ARPHRD_LOOPBACK
                                         : ARPHRD_ETHER;
    for (const auto& f : j.at("flags")) {
        if (f == "UP") l.flags |= IFF_UP;
        if (f == "LOOPBACK") l.flags |= IFF_LOOPBACK;
    }
    if (j.contains("IFLA_LINK")) l.link = j.at("IFLA_LINK").get<int32_t>();
    if (j.contains("IFLA_INFO_KIND")) l.kind = j.at("IFLA_INFO_KIND").get<std::string>();
    if (j.contains("IFLA_ADDRESS")) {
        const std::string a = j.at("IFLA_ADDRESS").get<std::string>();
        if (l.type == ARPHRD_INFINIBAND) {
            l.ib_address = bytes_of<20>(a);
        } else {
            l.mac = bytes_of<6>(a);
        }
    }
    if (j.contains("IFLA_IPOIB_PKEY")) {
        l.ipoib = netdev::Link::Ipoib{static_cast<uint16_t>(std::stoul(
                                          j.at("IFLA_IPOIB_PKEY").get<std::string>(), nullptr, 16)),
                                      j.at("IFLA_IPOIB_MODE").get<uint16_t>(),
                                      j.at("IFLA_IPOIB_UMCAST").get<uint16_t>() != 0};
    }
    l.carrier = j.at("IFLA_CARRIER").get<int>() != 0;
    if (j.contains("IFLA_CARRIER_CHANGES"))
        l.carrier_changes = j.at("IFLA_CARRIER_CHANGES").get<uint32_t>();
    const std::string oper = j.at("IFLA_OPERSTATE").get<std::string>();
    l.operstate = oper == "UP" ? 6 : oper == "LOWERLAYERDOWN" ? 3 : oper == "DOWN" ? 2 : 0;
    return l;
}

netdev::Address address_from(const json& j) {
    const auto a = j.at("IFA_LOCAL").get<std::string>();
    std::array<uint8_t, 4> v4{};
    EXPECT_EQ(::inet_pton(AF_INET, a.c_str(), v4.data()), 1) << a;
    return test::ipv4(j.at("ifindex").get<int32_t>(), v4[0], v4[1], v4[2], v4[3],
                      j.at("prefix").get<uint8_t>());
}

netlink::NlResOwner owner_from(const json& j) {
    netlink::NlResOwner o;
    if (j.contains("pid")) o.pid = j.at("pid").get<uint32_t>();
    if (j.contains("kern_name")) o.kernel_name = j.at("kern_name").get<std::string>();
    return o;
}

netlink::NlSockAddr v4_from(const std::string& text) {
    const auto colon = text.rfind(':');
    netlink::NlSockAddr s;
    s.family = AF_INET;
    s.port = static_cast<uint16_t>(std::stoul(text.substr(colon + 1)));
    std::array<uint8_t, 4> v4{};
    EXPECT_EQ(::inet_pton(AF_INET, text.substr(0, colon).c_str(), v4.data()), 1) << text;
    s.address = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, v4[0], v4[1], v4[2], v4[3]};
    return s;
}

// The reply to a device dump: the recorded one, with mlx5_0 added before its end.
std::vector<uint8_t> devices_with_mlx5(const std::vector<uint8_t>& recorded, uint32_t index) {
    std::vector<uint8_t> out;
    size_t at = 0;
    while (at + sizeof(nlmsghdr) <= recorded.size()) {
        nlmsghdr h{};
        std::memcpy(&h, recorded.data() + at, sizeof h);
        const size_t len = NLMSG_ALIGN(h.nlmsg_len);
        if (h.nlmsg_len < sizeof h || at + h.nlmsg_len > recorded.size()) break;
        if (h.nlmsg_type == NLMSG_DONE) {
            test::NlBuilder b;
            b.begin(RDMA_NLDEV_CMD_GET)
                .u32(RDMA_NLDEV_ATTR_DEV_INDEX, index)
                .str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0")
                .str(RDMA_NLDEV_ATTR_DEV_PROTOCOL, "ib")
                .end();
            const auto& m = b.bytes();
            out.insert(out.end(), m.begin(), m.end());
        }
        out.insert(
            out.end(), recorded.begin() + static_cast<std::ptrdiff_t>(at),
            recorded.begin() + static_cast<std::ptrdiff_t>(std::min(at + len, recorded.size())));
        at += len;
    }
    return out;
}

// One kernel's recording beside mlx5_0, answered as the kernel would.
struct Host {
    fs::path kernel_dir;
    json links = read_json(kHost / "links.json");
    json mlx = read_json(kHost / "mlx5_0.resources.json");
    test::TempDir procfs{"consumers-fixture-procfs"};

    explicit Host(fs::path dir) : kernel_dir(std::move(dir)) {
        fs::copy(kHost / "procfs", procfs.path(), fs::copy_options::recursive);
        // The recorded processes, named as `rdma -j res show` named them then.
        for (const char* file : {"rdma-res-qp.json", "rdma-res-cm_id.json"}) {
            for (const auto& e : read_json(kernel_dir / file)) {
                if (!e.contains("pid")) continue;
                const auto pid_dir = procfs.path() / std::to_string(e.at("pid").get<uint32_t>());
                fs::create_directories(pid_dir);
                std::ofstream(pid_dir / "comm") << e.at("comm").get<std::string>() << "\n";
            }
        }
    }

    uint32_t mlx_index() const { return mlx.at("ifindex").get<uint32_t>(); }

    std::vector<uint8_t> mlx_qps() const {
        std::vector<netlink::NlQp> qps;
        for (const auto& q : mlx.at("qps")) {
            netlink::NlQp x;
            x.qpn = q.at("lqpn").get<uint32_t>();
            if (q.contains("port")) x.port = q.at("port").get<uint32_t>();
            x.type = value_named(q.at("type").get<std::string>(), netlink::qp_type_name);
            x.state = value_named(q.at("state").get<std::string>(), netlink::qp_state_name);
            x.owner = owner_from(q);
            qps.push_back(x);
        }
        return test::qp_dump(qps);
    }

    std::vector<uint8_t> mlx_cm_ids() const {
        std::vector<netlink::NlCmId> ids;
        for (const auto& c : mlx.at("cm_ids")) {
            netlink::NlCmId x;
            x.id = c.at("cm_idn").get<uint32_t>();
            x.port = c.at("port").get<uint32_t>();
            x.port_space = port_space_named(c.at("ps").get<std::string>());
            x.state = value_named(c.at("state").get<std::string>(), netlink::cm_state_name);
            if (c.contains("lqpn")) x.qpn = c.at("lqpn").get<uint32_t>();
            if (c.contains("qp_type"))
                x.qp_type = value_named(c.at("qp_type").get<std::string>(), netlink::qp_type_name);
            x.source = v4_from(c.at("src").get<std::string>());
            x.destination = v4_from(c.at("dst").get<std::string>());
            x.owner = owner_from(c);
            ids.push_back(x);
        }
        return test::cm_id_dump(ids);
    }

    std::vector<uint8_t> answer_rdma(std::span<const uint8_t> req) const {
        nlmsghdr h{};
        std::memcpy(&h, req.data(), sizeof h);
        const auto op = static_cast<uint16_t>(h.nlmsg_type & 0x3ff);
        if (op == RDMA_NLDEV_CMD_GET)
            return devices_with_mlx5(test::read_hex_file(kernel_dir / "dev.hex"), mlx_index());
        uint32_t index = 0;
        std::memcpy(&index, req.data() + sizeof h + 4, 4);
        const bool ours = index == mlx_index();
        switch (op) {
            case RDMA_NLDEV_CMD_PORT_GET:
                return ours ? test::port_dump(
                                  {netlink::NlPort{index, "mlx5_0", 1, std::nullopt, ""}})
                            : test::read_hex_file(kernel_dir / "rxe0.ports.hex");
            case RDMA_NLDEV_CMD_RES_QP_GET:
                return ours ? mlx_qps() : test::read_hex_file(kernel_dir / "rxe0.qps.hex");
            case RDMA_NLDEV_CMD_RES_CM_ID_GET:
                return ours ? mlx_cm_ids() : test::read_hex_file(kernel_dir / "rxe0.cm_ids.hex");
            default:
                return test::NlBuilder().error(-EOPNOTSUPP).bytes();
        }
    }

    std::vector<uint8_t> answer_route(std::span<const uint8_t> req) const {
        nlmsghdr h{};
        std::memcpy(&h, req.data(), sizeof h);
        if (h.nlmsg_type == RTM_GETLINK) {
            std::vector<netdev::Link> all;
            for (const auto& l : links.at("links")) all.push_back(link_from(l));
            return test::link_dump(all);
        }
        std::vector<netdev::Address> all;
        for (const auto& a : links.at("addresses")) all.push_back(address_from(a));
        return test::address_dump(all);
    }

    netdev::NetdevIo io() const {
        netdev::NetdevIo io;
        io.rdma = [this]() -> Result<netlink::NlTransport> {
            return netlink::NlTransport(
                [this](std::span<const uint8_t> r) -> Result<std::vector<uint8_t>> {
                    return answer_rdma(r);
                });
        };
        io.route = [this]() -> Result<netlink::NlTransport> {
            return netlink::NlTransport(
                [this](std::span<const uint8_t> r) -> Result<std::vector<uint8_t>> {
                    return answer_route(r);
                });
        };
        return io;
    }
};

// What `rdmadiag consumers` prints for the host: its consumers and the consumer findings.
std::string judged(const Host& host) {
    auto engine = engine::make_default_engine();
    const TimePoint t0{std::chrono::hours(24 * 365 * 56)};
    sources::SourceSettings tables;
    tables.sysfs_root = (fs::path(test::fixtures_dir()) / "sysfs/mlx5-ib").string();
    sysfs::SysfsSource sysfs(tables, std::make_unique<sysfs::PosixSysfsReader>());
    sources::VectorSink read;
    sysfs.sample_all(t0, read);

    sources::SourceSettings s;
    s.sysfs_root = (kHost / "sysfs").string();
    s.procfs_root = host.procfs.string();
    EXPECT_TRUE(sources::resolve_source_options("consumers", consumers_options(), s).ok());
    ConsumersSource source(s, host.io());
    source.poll(t0 + std::chrono::seconds(1), read);
    for (const auto& o : read.observations) engine->consume(o);
    const auto snap = engine->snapshot();
    return cli::render::render_consumers_text(*snap, PortRef{});
}

TEST(ConsumersFixture, EveryRecordedKernelBesideTheInfiniBandHost) {
    const fs::path kernels = fs::path(test::fixtures_dir()) / "netlink";
    int seen = 0;
    for (const auto& k : fs::directory_iterator(kernels)) {
        if (!k.is_directory()) continue;
        ++seen;
        const std::string name = k.path().filename().string();
        SCOPED_TRACE(name);
        const Host host(k.path());
        const std::string got = judged(host);
        const fs::path golden = kHost / "golden" / (name + ".txt");
        if (std::getenv("RDMADIAG_UPDATE_GOLDEN") != nullptr) {
            fs::create_directories(golden.parent_path());
            std::ofstream(golden) << got;
            continue;
        }
        EXPECT_EQ(got, read_text(golden)) << "RDMADIAG_UPDATE_GOLDEN=1 rewrites " << golden;
    }
    EXPECT_EQ(seen, 4);
}

}  // namespace
}  // namespace rdmadiag::consumers
