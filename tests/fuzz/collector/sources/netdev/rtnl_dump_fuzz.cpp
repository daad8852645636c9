// rtnetlink link and address dumps and RDMA netlink port dumps, as recvmsg hands them over. What
// a parser accepts, written back the way the kernel lays it out, must parse to the same; the GIDs
// worked out from accepted tables are numbered in order, never zero, one per GID and netdev.

#include <cstdint>
#include <set>
#include <span>
#include <utility>

#include "collector/sources/netdev/kernel_gids.hpp"
#include "collector/sources/netdev/rtnl_parser.hpp"
#include "collector/sources/netlink/rdma_nl_parser.hpp"
#include "tests/collector/sources/netdev/rtnl_bytes.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

namespace {

void check_gids(const std::vector<netdev::Link>& links,
                const std::vector<netdev::Address>& addresses) {
    for (const auto& l : links) {
        auto t = netdev::kernel_roce_gids(l.index, links, addresses);
        std::set<std::pair<Gid, std::string>> seen;
        for (size_t i = 0; i < t.entries.size(); ++i) {
            const auto& e = t.entries[i];
            FUZZ_CHECK(e.index == i);
            FUZZ_CHECK(!e.gid.is_zero());
            FUZZ_CHECK(e.type == GidType::unknown);
            FUZZ_CHECK(seen.emplace(e.gid, e.ndev).second);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::span<const uint8_t> bytes(data, size);
    auto links = netdev::parse_link_dump(bytes);
    if (links) {
        auto again = netdev::parse_link_dump(test::link_dump(*links));
        FUZZ_CHECK(again && *again == *links);
        check_gids(*links, {});
    }
    auto addresses = netdev::parse_address_dump(bytes);
    if (addresses) {
        auto again = netdev::parse_address_dump(test::address_dump(*addresses));
        FUZZ_CHECK(again && *again == *addresses);
        if (links) check_gids(*links, *addresses);
    }
    auto ports = netlink::parse_nl_port_dump(bytes);
    if (ports) {
        auto again = netlink::parse_nl_port_dump(test::port_dump(*ports));
        FUZZ_CHECK(again && *again == *ports);
    }
    return 0;
}
