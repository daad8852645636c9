#include "collector/engine/mr/mr_advice.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::engine::mr {
namespace {

TEST(MrAdvice, HealthyStatesNeedNothing) {
    for (MrState s : {MrState::valid, MrState::invalid, MrState::deregistered}) {
        EXPECT_TRUE(mr_advice(s, Transport::ib, {}).empty()) << to_string(s);
    }
}

TEST(MrAdvice, UnknownOnIbAndRoceMeansDeregister) {
    for (Transport t : {Transport::ib, Transport::roce}) {
        std::string a = mr_advice(MrState::unknown, t, {});
        EXPECT_NE(a.find("must deregister"), std::string::npos);
        EXPECT_NE(a.find("not safe"), std::string::npos);
    }
}

TEST(MrAdvice, UnknownOnIwarpAllowsRepostingLocalInv) {
    std::string a = mr_advice(MrState::unknown, Transport::iwarp, {});
    EXPECT_NE(a.find("re-post LOCAL_INV"), std::string::npos);
}

TEST(MrAdvice, NamesTheOwner) {
    MrOwner p{1234, "nginx"};
    EXPECT_NE(mr_advice(MrState::stuck, Transport::roce, p).find("nginx (pid 1234)"),
              std::string::npos);
    MrOwner k{std::nullopt, "xprtrdma"};
    EXPECT_NE(mr_advice(MrState::stuck, Transport::ib, k).find("kernel ULP xprtrdma"),
              std::string::npos);
}

}  // namespace
}  // namespace rdmadiag::engine::mr
