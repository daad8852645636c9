#pragma once
// How the sysfs source touches the file system: one small read per value file and one listing per
// directory. The source takes a reader so tests can make any file fail the way the kernel makes
// it fail (EINVAL from a driver, EACCES, EAGAIN) without root or a real device.

#include <cstddef>
#include <string>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::sysfs {

// Every value file the source reads fits in this; sysfs attributes are at most a page.
constexpr size_t kReadBufferSize = 4096;

class SysfsReader {
public:
    virtual ~SysfsReader() = default;

    // Reads the whole of a small file into buf with a single read() and returns its length. A
    // file that fills the buffer is too long to be a value and is an error (EOVERFLOW).
    virtual Result<size_t> read_file(const std::string& path, char* buf, size_t size) = 0;

    // Names of a directory's entries, without "." and "..", in no particular order.
    virtual Result<std::vector<std::string>> list_dir(const std::string& path) = 0;
};

// The real thing: open(O_RDONLY|O_CLOEXEC), one read(), close(); opendir()/readdir().
class PosixSysfsReader final : public SysfsReader {
public:
    Result<size_t> read_file(const std::string& path, char* buf, size_t size) override;
    Result<std::vector<std::string>> list_dir(const std::string& path) override;
};

}  // namespace rdmadiag::sysfs
