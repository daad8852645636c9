#include "collector/sources/sysfs/sysfs_reader.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

#include <cerrno>
#include <cstring>
#include <memory>

#include "collector/common/unique_fd.hpp"

namespace rdmadiag::sysfs {

namespace {

// Files held by every reader of the process: the budget (held_file_budget) is the process's, so
// two readers at once (a reload builds the new source before the old one goes) never hold
// twice as many.
std::atomic<size_t> g_held_files{0};

Error errno_error(const char* what, const std::string& path, int err) {
    return make_error(std::string(what) + " " + path + ": " + std::strerror(err), err);
}

struct DirCloser {
    void operator()(DIR* d) const { ::closedir(d); }
};

// One read from the start of an open file.
Result<size_t> read_at_start(int fd, const std::string& path, char* buf, size_t size) {
    ssize_t n;
    do {
        n = ::pread(fd, buf, size, 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno_error("cannot read", path, errno);
    auto len = static_cast<size_t>(n);
    if (len >= size) {
        return make_error(path + ": value longer than " + std::to_string(size - 1) + " bytes",
                          EOVERFLOW);
    }
    return len;
}

Result<common::UniqueFd> open_value_file(const std::string& path) {
    common::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return errno_error("cannot open", path, errno);
    return fd;
}

}  // namespace

bool SysfsReader::exists(const std::string& path) {
    return ::access(path.c_str(), F_OK) == 0;
}

Result<size_t> PosixSysfsReader::read_file(const std::string& path, char* buf, size_t size) {
    auto fd = RDMADIAG_TRY(open_value_file(path));
    return read_at_start(fd.get(), path, buf, size);
}

Result<size_t> PosixSysfsReader::read_held(const std::string& path, char* buf, size_t size) {
    HeldSlot slot;
    return read_held(path, buf, size, slot);
}

Result<size_t> PosixSysfsReader::read_held(const std::string& path, char* buf, size_t size,
                                           HeldSlot& slot) {
    if (slot.index < held_.size() && held_[slot.index].generation == slot.generation &&
        held_[slot.index].fd.valid()) {
        auto n = read_entry(slot.index, buf, size);
        if (n || n.error().code == EOVERFLOW) return n;
    } else if (auto it = by_path_.find(path); it != by_path_.end()) {
        slot = HeldSlot{it->second, held_[it->second].generation};
        auto n = read_entry(it->second, buf, size);
        if (n || n.error().code == EOVERFLOW) return n;
    }
    return open_and_hold(path, buf, size, slot);
}

Result<size_t> PosixSysfsReader::read_entry(uint32_t index, char* buf, size_t size) {
    Held& h = held_[index];
    auto n = read_at_start(h.fd.get(), h.path, buf, size);
    // A value that does not fit is the file's answer; any other failure may be the held
    // descriptor's own (its device was removed and registered again): the file is opened afresh.
    if (!n && n.error().code != EOVERFLOW) let_go(index);
    return n;
}

Result<size_t> PosixSysfsReader::open_and_hold(const std::string& path, char* buf, size_t size,
                                               HeldSlot& slot) {
    if (g_held_files.load(std::memory_order_relaxed) >= max_held_) {
        return read_file(path, buf, size);
    }
    auto fd = RDMADIAG_TRY(open_value_file(path));
    auto n = read_at_start(fd.get(), path, buf, size);
    if (!n) return n;
    g_held_files.fetch_add(1, std::memory_order_relaxed);
    uint32_t index;
    if (!free_.empty()) {
        index = free_.back();
        free_.pop_back();
    } else {
        index = static_cast<uint32_t>(held_.size());
        held_.emplace_back();
    }
    Held& h = held_[index];
    h.path = path;
    h.fd = std::move(fd);
    by_path_.emplace(path, index);
    slot = HeldSlot{index, h.generation};
    return n;
}

PosixSysfsReader::~PosixSysfsReader() {
    g_held_files.fetch_sub(by_path_.size(), std::memory_order_relaxed);
}

void PosixSysfsReader::let_go(uint32_t index) {
    g_held_files.fetch_sub(1, std::memory_order_relaxed);
    Held& h = held_[index];
    by_path_.erase(h.path);
    h.fd.reset();
    h.path.clear();
    ++h.generation;
    free_.push_back(index);
}

void PosixSysfsReader::release(std::string_view dir) {
    for (uint32_t i = 0; i < held_.size(); ++i) {
        const std::string& p = held_[i].path;
        if (held_[i].fd.valid() && p.size() > dir.size() && p.starts_with(dir) &&
            p[dir.size()] == '/') {
            let_go(i);
        }
    }
}

size_t held_file_budget() {
    constexpr size_t kMaxHeld = 4096;
    rlimit lim{};
    if (::getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return kMaxHeld;
    return std::min<size_t>(kMaxHeld, static_cast<size_t>(lim.rlim_cur) / 2);
}

Result<std::vector<std::string>> PosixSysfsReader::list_dir(const std::string& path) {
    std::unique_ptr<DIR, DirCloser> dir(::opendir(path.c_str()));
    if (!dir) return errno_error("cannot list", path, errno);
    std::vector<std::string> names;
    errno = 0;
    while (const dirent* e = ::readdir(dir.get())) {
        if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
        names.emplace_back(e->d_name);
    }
    if (errno != 0) return errno_error("cannot list", path, errno);
    return names;
}

namespace {

// The names in an open directory, from its start.
Result<std::vector<std::string>> list_open_dir(int fd, const std::string& path) {
    if (::lseek(fd, 0, SEEK_SET) < 0) return errno_error("cannot list", path, errno);
    std::vector<std::string> names;
    alignas(dirent64) char buf[8192];
    for (;;) {
        const ssize_t n = ::getdents64(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno_error("cannot list", path, errno);
        if (n == 0) return names;
        for (ssize_t off = 0; off < n;) {
            const auto* e = reinterpret_cast<const dirent64*>(buf + off);
            off += e->d_reclen;
            if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
            names.emplace_back(e->d_name);
        }
    }
}

}  // namespace

Result<std::vector<std::string>> PosixSysfsReader::list_held_dir(const std::string& path) {
    if (max_held_ == 0) return list_dir(path);
    if (auto it = held_dirs_.find(path); it != held_dirs_.end()) {
        auto names = list_open_dir(it->second.get(), path);
        if (names) return names;
        // The directory itself may have gone and come back: list it afresh below.
        held_dirs_.erase(it);
    }
    common::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!fd.valid()) return errno_error("cannot list", path, errno);
    auto names = list_open_dir(fd.get(), path);
    if (names) held_dirs_.emplace(path, std::move(fd));
    return names;
}

bool is_mounted_sysfs(const std::string& root) {
    struct statfs fs {};
    return ::statfs(root.c_str(), &fs) == 0 && fs.f_type == SYSFS_MAGIC;
}

}  // namespace rdmadiag::sysfs
