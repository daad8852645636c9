#include "collector/model/finding.hpp"

#include <gtest/gtest.h>

namespace rdmadiag {
namespace {

TEST(FindingSubject, NamesEveryPartThatApplies) {
    FindingSubject port{"mlx5_0", 1u, 3, 0x8001, std::nullopt};
    EXPECT_EQ(port.to_string(), "mlx5_0:1 index 3 pkey 0x8001");
    FindingSubject mr{"mlx5_0", std::nullopt, std::nullopt, std::nullopt, 17u};
    EXPECT_EQ(mr.to_string(), "mlx5_0 mr 17");
    FindingSubject partition;
    partition.pkey = 0x0011;
    EXPECT_EQ(partition.to_string(), "pkey 0x0011") << "a partition has no device to lead with";
    Finding f;
    f.rule = "partition.member_missing";
    f.subject = partition;
    EXPECT_EQ(f.id(), "partition.member_missing/pkey 0x0011");
}

}  // namespace
}  // namespace rdmadiag
