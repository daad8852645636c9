#include "collector/sources/consumers/srp_hosts.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::consumers {
namespace {

SrpHostFiles ib_cm_host() {
    // As ib_srp prints them: "%s\n", "%d\n", "0x%04x\n", "%pI6\n".
    SrpHostFiles f;
    f.host = "host7";
    f.local_ib_device = "mlx5_0\n";
    f.local_ib_port = "1\n";
    f.pkey = "0x8001\n";
    f.sgid = "fe80:0000:0000:0000:0002:c903:0000:1235\n";
    f.dgid = "fe80:0000:0000:0000:0002:c903:0000:5678\n";
    return f;
}

TEST(SrpHosts, AnIbCmLoginIsAnRcConsumerWithItsPkeyAndGids) {
    auto c = srp_consumer(ib_cm_host());
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->kind, ConsumerKind::srp);
    EXPECT_EQ(c->name, "host7");
    EXPECT_EQ(c->device, "mlx5_0");
    EXPECT_EQ(c->port, 1u);
    EXPECT_EQ(c->pkey, 0x8001);
    EXPECT_EQ(c->qp_type, "RC");
    EXPECT_EQ(c->owner.name, "ib_srp");
    EXPECT_EQ(c->gid->to_string(), "fe80:0000:0000:0000:0002:c903:0000:1235");
    EXPECT_EQ(c->address, "fe80:0000:0000:0000:0002:c903:0000:5678");
}

TEST(SrpHosts, AnRdmaCmLoginHasNoPkeyOrTarget) {
    auto f = ib_cm_host();
    f.pkey.reset();  // ENOENT for a target reached through RDMA CM
    f.dgid.reset();
    auto c = srp_consumer(f);
    ASSERT_TRUE(c.ok());
    EXPECT_FALSE(c->pkey);
    EXPECT_EQ(c->address, "");
    EXPECT_TRUE(c->gid);
}

TEST(SrpHosts, OtherScsiHostsAreNotSrp) {
    SrpHostFiles ahci;
    ahci.host = "host0";
    EXPECT_FALSE(is_srp_host(ahci));
    EXPECT_TRUE(is_srp_host(ib_cm_host()));
}

TEST(SrpHosts, GarbageNamesTheFile) {
    auto f = ib_cm_host();
    f.pkey = "0xzz\n";
    auto c = srp_consumer(f);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("host7: pkey"), std::string::npos) << c.error().message;
    f = ib_cm_host();
    f.local_ib_port = "0\n";
    EXPECT_FALSE(srp_consumer(f).ok());
    f = ib_cm_host();
    f.sgid = "fe80::zz\n";
    EXPECT_NE(srp_consumer(f).error().message.find("sgid"), std::string::npos);
    f = ib_cm_host();
    f.local_ib_device = "\n";
    EXPECT_FALSE(srp_consumer(f).ok());
}

}  // namespace
}  // namespace rdmadiag::consumers
