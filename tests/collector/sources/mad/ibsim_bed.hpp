#pragma once
// What the tests on the ibsim + opensm bed share: whether a bed is running, driving it
// (tests/beds/ibsim/bed-ctl), running infiniband-diags against it, and its fixture files.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include "tests/support/test_paths.hpp"

namespace rdmadiag::mad::ibsim_bed {

// The running bed's folder (with-bed sets it); null without a bed.
inline const char* bed_dir() {
    return std::getenv("BED_DIR");
}

// Standard output of a shell command (infiniband-diags under the preloaded simulator).
inline std::string run(const std::string& cmd) {
    std::string out;
    FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
    if (p == nullptr) return out;
    std::array<char, 4096> buf{};
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    pclose(p);
    return out;
}

inline void bed_ctl(const std::string& args) {
    const char* ctl = std::getenv("RDMADIAG_BED_CTL");
    ASSERT_NE(ctl, nullptr);
    ASSERT_EQ(std::system((std::string(ctl) + " " + args).c_str()), 0) << args;
}

// tests/fixtures/ibsim/<name>
inline std::string fixture(const std::string& name) {
    return ::rdmadiag::test::fixtures_dir() + "/ibsim/" + name;
}

}  // namespace rdmadiag::mad::ibsim_bed
