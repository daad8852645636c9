#pragma once
// What the sysfs source tests share: fixture paths, picking observations of one kind out of a
// poll, and a reader that fails the way drivers make reads fail.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <typeinfo>
#include <vector>

#include "collector/sources/sysfs/sysfs_options.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "tests/support/source_options.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::sysfs::test_support {

inline std::string fixture(const std::string& name) {
    return ::rdmadiag::test::fixtures_dir() + "/sysfs/" + name;
}

// A folder's value files as plain numbers (lifespan included: the kernel never sends it).
inline std::map<std::string, uint64_t> files_of(const std::string& dir) {
    std::map<std::string, uint64_t> out;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(e.path());
        uint64_t v = 0;
        in >> v;
        out[e.path().filename().string()] = v;
    }
    return out;
}

// The value of the source's figure `name`; a test failure when it has none.
inline double figure(const sources::Source& src, const std::string& name) {
    for (const auto& f : src.figures()) {
        if (f.name == name) return f.value;
    }
    ADD_FAILURE() << "no figure " << name;
    return -1;
}

inline TimePoint at(Duration d) {
    return TimePoint{d};
}

template <class T>
std::vector<T> all(const std::vector<Observation>& obs) {
    std::vector<T> out;
    for (const auto& o : obs) {
        if (const T* t = std::get_if<T>(&o.body)) out.push_back(*t);
    }
    return out;
}

template <class T>
T only(const std::vector<Observation>& obs) {
    auto v = all<T>(obs);
    EXPECT_EQ(v.size(), 1u) << "expected exactly one " << typeid(T).name();
    return v.empty() ? T{} : v.front();
}

inline std::map<std::string, CounterSample> counters_by_name(const std::vector<Observation>& obs,
                                                             CounterKind kind) {
    std::map<std::string, CounterSample> out;
    for (const auto& c : all<CounterSample>(obs)) {
        if (c.kind == kind) out[c.name] = c;
    }
    return out;
}

inline std::map<std::string, SampleError> errors_by_subject(const std::vector<Observation>& obs) {
    std::map<std::string, SampleError> out;
    for (const auto& e : all<SampleError>(obs)) {
        EXPECT_FALSE(out.contains(e.subject)) << "reported twice: " << e.subject;
        out[e.subject] = e;
    }
    return out;
}

// `s` with its sysfs.* options resolved, as open_sources() resolves them.
inline sources::SourceSettings with_sysfs_options(sources::SourceSettings s) {
    return ::rdmadiag::test::resolved(std::move(s), "sysfs", sysfs_options());
}

inline std::unique_ptr<SysfsSource> source_at(const std::string& root,
                                              sources::SourceSettings s = {}) {
    s.sysfs_root = root;
    return std::make_unique<SysfsSource>(with_sysfs_options(s),
                                         std::make_unique<sysfs::PosixSysfsReader>());
}

inline std::vector<Observation> sample_all(SysfsSource& src,
                                           TimePoint t = at(std::chrono::seconds(1))) {
    sources::VectorSink sink;
    src.sample_all(t, sink);
    return sink.observations;
}

// Failures read() gives on real sysfs that plain files cannot reproduce (a driver's EINVAL, an
// LSM's EACCES, EAGAIN from a busy firmware command) come through an injected reader. It also
// keeps every path the source tried to read or list, so a test can tell what a poll touched.
class FailingReader final : public sysfs::SysfsReader {
public:
    std::map<std::string, int> fail_read;  // path suffix -> errno
    std::map<std::string, int> fail_list;
    std::vector<std::string> reads;
    std::vector<std::string> listings;  // directories listed
    Result<size_t> read_file(const std::string& path, char* buf, size_t size) override {
        reads.push_back(path);
        for (const auto& [suffix, err] : fail_read) {
            if (path.ends_with(suffix)) return make_error("injected failure " + path, err);
        }
        return real_.read_file(path, buf, size);
    }
    Result<std::vector<std::string>> list_dir(const std::string& path) override {
        listings.push_back(path);
        for (const auto& [suffix, err] : fail_list) {
            if (path.ends_with(suffix)) return make_error("injected failure " + path, err);
        }
        return real_.list_dir(path);
    }

private:
    sysfs::PosixSysfsReader real_;
};

}  // namespace rdmadiag::sysfs::test_support
