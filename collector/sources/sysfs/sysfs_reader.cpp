#include "collector/sources/sysfs/sysfs_reader.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>

#include <cerrno>
#include <cstring>
#include <memory>

#include "collector/common/unique_fd.hpp"

namespace rdmadiag::sysfs {

namespace {
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

Result<size_t> PosixSysfsReader::read_file(const std::string& path, char* buf, size_t size) {
    auto fd = RDMADIAG_TRY(open_value_file(path));
    return read_at_start(fd.get(), path, buf, size);
}

Result<size_t> PosixSysfsReader::read_held(const std::string& path, char* buf, size_t size) {
    if (auto it = held_.find(path); it != held_.end()) {
        auto n = read_at_start(it->second.get(), path, buf, size);
        // A value that does not fit is the file's answer; any other failure may be the held
        // descriptor's own (its device was removed and registered again): open the file afresh.
        if (n || n.error().code == EOVERFLOW) return n;
        held_.erase(it);
    }
    if (held_.size() >= max_held_) return read_file(path, buf, size);
    auto fd = RDMADIAG_TRY(open_value_file(path));
    auto n = read_at_start(fd.get(), path, buf, size);
    if (n) held_.emplace(path, std::move(fd));
    return n;
}

void PosixSysfsReader::release(std::string_view dir) {
    std::erase_if(held_, [dir](const auto& kv) {
        const std::string& p = kv.first;
        return p.size() > dir.size() && p.starts_with(dir) && p[dir.size()] == '/';
    });
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

bool is_mounted_sysfs(const std::string& root) {
    struct statfs fs {};
    return ::statfs(root.c_str(), &fs) == 0 && fs.f_type == SYSFS_MAGIC;
}

}  // namespace rdmadiag::sysfs
