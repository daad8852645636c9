#pragma once
// A scratch folder for one test, unique per run and removed afterwards, with helpers to copy
// fixture trees into it and to break files in ways git cannot store.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace rdmadiag::test {

class TempTree {
public:
    TempTree() {
        // Trees have hundreds of small files; a tmpfs makes them in milliseconds where a
        // journalling disk takes seconds.
        std::filesystem::path base = ::access("/dev/shm", W_OK) == 0
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
        std::string pattern = (base / "rdmadiag-sysfs-XXXXXX").string();
        if (char* made = ::mkdtemp(pattern.data())) path_ = made;
    }
    ~TempTree() {
        std::error_code ec;
        if (!path_.empty()) std::filesystem::remove_all(path_, ec);
    }
    TempTree(const TempTree&) = delete;
    TempTree& operator=(const TempTree&) = delete;

    const std::string& path() const { return path_; }
    bool ok() const { return !path_.empty(); }

    // Copies the devices of fixture tree `name` (tests/fixtures/sysfs/<name>) into this root.
    void add_fixture(const std::string& name) const {
        namespace fs = std::filesystem;
        fs::path from = fs::path(RDMADIAG_FIXTURES) / "sysfs" / name / "class" / "infiniband";
        fs::path to = fs::path(path_) / "class" / "infiniband";
        fs::create_directories(to);
        fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    }

    // Replaces a file by a directory of the same name: open() still succeeds, read() fails with
    // EISDIR, whoever runs the test (chmod 000 does not stop root).
    void make_unreadable(const std::string& relative) const {
        namespace fs = std::filesystem;
        fs::path p = fs::path(path_) / relative;
        fs::remove(p);
        fs::create_directories(p);
    }

private:
    std::string path_;
};

}  // namespace rdmadiag::test
