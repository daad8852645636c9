#pragma once
// A scratch sysfs root for one test (a TempDir), with helpers to copy fixture trees into it and
// to break files in ways git cannot store.

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::test {

class TempTree {
public:
    TempTree() : dir_("sysfs"), path_(dir_.string()) {}

    const std::string& path() const { return path_; }
    // TempDir throws when it cannot make the folder: a tree that exists is always ok.
    bool ok() const { return std::filesystem::is_directory(path_); }

    // Copies the devices of fixture tree `name` (tests/fixtures/sysfs/<name>) into this root.
    void add_fixture(const std::string& name) const {
        namespace fs = std::filesystem;
        fs::path from =
            fs::path(::rdmadiag::test::fixtures_dir()) / "sysfs" / name / "class" / "infiniband";
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
    TempDir dir_;
    std::string path_;
};

}  // namespace rdmadiag::test
