#pragma once
// The one way a test makes a scratch folder. mkdtemp gives every call its own name, so two runs
// of a test, two tests of one run or two processes never share a folder; the destructor removes
// it with everything in it, whether the test passed or not.

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace rdmadiag::test {

class TempDir {
public:
    // `tag` says whose folder it is: <base>/rdmadiag-<tag>-XXXXXX.
    explicit TempDir(std::string_view tag) {
        std::string pattern = (base() / ("rdmadiag-" + std::string(tag) + "-XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::string string() const { return path_.string(); }
    // A path inside the folder, as a string for the APIs that take one.
    std::string file(std::string_view relative) const { return (path_ / relative).string(); }

private:
    // Tests make trees of hundreds of small files: a tmpfs makes them in milliseconds where a
    // journalling disk takes seconds. TMPDIR, when set, still says where.
    static std::filesystem::path base() {
        if (const char* tmpdir = std::getenv("TMPDIR"); tmpdir != nullptr && *tmpdir != '\0')
            return tmpdir;
        if (::access("/dev/shm", W_OK) == 0) return "/dev/shm";
        return std::filesystem::temp_directory_path();
    }

    std::filesystem::path path_;
};

}  // namespace rdmadiag::test
