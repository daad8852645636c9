#include "tests/collector/sources/mad/fake_fabric.hpp"

namespace rdmadiag::mad::test {

FakeFabric fat_tree(const FatTreeShape& s) {
    FakeFabric f;
    std::vector<uint16_t> ca_keys(64, 0), sw_keys(32, 0);
    ca_keys[0] = 0xffff, ca_keys[1] = 0x8001;
    sw_keys[0] = 0xffff, sw_keys[1] = 0x8001;
    uint16_t next_lid = 1;
    const int first_spine = static_cast<int>(s.leaves);
    const int first_host = static_cast<int>(s.leaves + s.spines);
    auto new_switch = [&](uint64_t guid, unsigned ports, std::string desc) {
        FakeNode sw{guid, 2, 32, 32, std::move(desc), {}};
        sw.ports.resize(ports + 1);
        sw.ports[0] = FakePort{next_lid++, -1, 0, std::vector<uint16_t>(32, 0), {}, 0};
        sw.ports[0].pkeys[0] = 0xffff;
        for (unsigned p = 1; p <= ports; ++p) sw.ports[p] = FakePort{0, -1, 0, sw_keys, sw_keys, 0};
        return sw;
    };
    const unsigned down = s.hosts_per_leaf * s.hca_ports;
    for (unsigned l = 0; l < s.leaves; ++l)
        f.nodes.push_back(new_switch(0x100000 + l, down + s.spines, "leaf" + std::to_string(l)));
    for (unsigned sp = 0; sp < s.spines; ++sp)
        f.nodes.push_back(new_switch(0x200000 + sp, s.leaves, "spine" + std::to_string(sp)));
    for (unsigned l = 0; l < s.leaves; ++l) {
        for (unsigned sp = 0; sp < s.spines; ++sp) {
            const auto up = static_cast<uint8_t>(down + 1 + sp);
            const auto at = static_cast<uint8_t>(l + 1);
            f.nodes[l].ports[up].peer_node = first_spine + static_cast<int>(sp);
            f.nodes[l].ports[up].peer_port = at;
            f.nodes[first_spine + sp].ports[at].peer_node = static_cast<int>(l);
            f.nodes[first_spine + sp].ports[at].peer_port = up;
        }
    }
    for (unsigned l = 0; l < s.leaves; ++l) {
        for (unsigned h = 0; h < s.hosts_per_leaf; ++h) {
            const unsigned host = l * s.hosts_per_leaf + h;
            FakeNode ca{0x300000 + host, 1, 64, 0, "host" + std::to_string(host) + " HCA-1", {}};
            ca.ports.resize(s.hca_ports + 1);
            for (unsigned p = 1; p <= s.hca_ports; ++p) {
                const auto leaf_port = static_cast<uint8_t>(h * s.hca_ports + p);
                ca.ports[p] =
                    FakePort{next_lid++, static_cast<int>(l), leaf_port, ca_keys, ca_keys, 0};
                f.nodes[l].ports[leaf_port].peer_node = static_cast<int>(f.nodes.size());
                f.nodes[l].ports[leaf_port].peer_port = static_cast<uint8_t>(p);
            }
            f.nodes.push_back(std::move(ca));
        }
    }
    f.sm_lid =
        f.nodes.size() > static_cast<size_t>(first_host) ? f.nodes[first_host].ports[1].lid : 1;
    return f;
}

size_t port_count(const FakeFabric& fabric) {
    size_t n = 0;
    for (const FakeNode& node : fabric.nodes) n += node.ports.size() - (node.type == 2 ? 0 : 1);
    return n;
}

}  // namespace rdmadiag::mad::test
