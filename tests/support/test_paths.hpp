#pragma once
// Where a test finds the source tree (and its fixtures) and the build tree. No path is compiled
// into a test: an object file that carries its checkout's folder is one a compiler cache cannot
// serve to a clone in another folder. The build tree is the nearest folder above the running
// program that holds CMakeCache.txt, and that file names the source tree; RDMADIAG_SOURCE_DIR and
// RDMADIAG_BINARY_DIR in the environment override either.

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace rdmadiag::test {

namespace paths_detail {

[[noreturn]] inline void fail(const std::string& why) {
    std::fprintf(stderr, "test paths: %s\n", why.c_str());
    std::abort();
}

inline std::string from_environment(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr ? std::string(v) : std::string();
}

inline std::filesystem::path find_binary_dir() {
    std::error_code ec;
    auto at = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    for (; !ec && !at.empty(); at = at.parent_path()) {
        if (std::filesystem::exists(at / "CMakeCache.txt")) return at;
        if (at == at.root_path()) break;
    }
    fail("no CMakeCache.txt above the test program; set ::rdmadiag::test::binary_dir()");
}

inline std::string source_dir_of(const std::filesystem::path& binary_dir) {
    std::ifstream cache(binary_dir / "CMakeCache.txt");
    constexpr std::string_view key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    for (std::string line; std::getline(cache, line);) {
        if (line.starts_with(key)) return line.substr(key.size());
    }
    fail("CMakeCache.txt in " + binary_dir.string() + " names no source tree");
}

}  // namespace paths_detail

// The build tree the test program was built in.
inline const std::string& binary_dir() {
    static const std::string dir = [] {
        std::string env = paths_detail::from_environment("RDMADIAG_BINARY_DIR");
        return env.empty() ? paths_detail::find_binary_dir().string() : env;
    }();
    return dir;
}

// The checkout the build tree was configured from.
inline const std::string& source_dir() {
    static const std::string dir = [] {
        std::string env = paths_detail::from_environment("RDMADIAG_SOURCE_DIR");
        return env.empty() ? paths_detail::source_dir_of(binary_dir()) : env;
    }();
    return dir;
}

inline std::string fixtures_dir() {
    return source_dir() + "/tests/fixtures";
}

}  // namespace rdmadiag::test
