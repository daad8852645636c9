#include "collector/probe/probe_client.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/collector/probe/probe_test_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::probe {
namespace {

TEST(ProbeClientIdentity, NamedAfterItsProcessOrItsPid) {
    const test::TempDir tmp("probe-procfs");
    const std::string procfs = tmp.string();
    std::filesystem::create_directories(procfs + "/1234");
    { std::ofstream(procfs + "/1234/comm") << "fio\n"; }

    ProbeClient known = identify_probe_client(7, 1234, 1000, procfs);
    EXPECT_EQ(known.fd, 7);
    EXPECT_EQ(known.pid, 1234u);
    EXPECT_EQ(known.uid, 1000u);
    EXPECT_EQ(known.comm, "fio");
    EXPECT_TRUE(known.rings.empty());

    ProbeClient gone = identify_probe_client(8, 4321, 0, procfs);
    EXPECT_EQ(gone.comm, "pid4321");
}

}  // namespace
}  // namespace rdmadiag::probe
