#include "collector/sources/sysfs/sysfs_reader.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

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
}  // namespace

Result<size_t> PosixSysfsReader::read_file(const std::string& path, char* buf, size_t size) {
    common::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid()) return errno_error("cannot open", path, errno);
    ssize_t n;
    do {
        n = ::read(fd.get(), buf, size);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno_error("cannot read", path, errno);
    auto len = static_cast<size_t>(n);
    if (len >= size) {
        return make_error(path + ": value longer than " + std::to_string(size - 1) + " bytes",
                          EOVERFLOW);
    }
    return len;
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

}  // namespace rdmadiag::sysfs
