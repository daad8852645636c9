#pragma once
// How the sysfs source touches the file system: one small read per value file and one listing per
// directory. The source takes a reader so tests can make any file fail the way the kernel makes
// it fail (EINVAL from a driver, EACCES, EAGAIN) without root or a real device.

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collector/common/result.hpp"
#include "collector/common/unique_fd.hpp"

namespace rdmadiag::sysfs {

// Every value file the source reads fits in this; sysfs attributes are at most a page.
constexpr size_t kReadBufferSize = 4096;

// The caller's note of where a reader holds a file it reads again and again: with it the reader
// finds the file without looking its path up among thousands. A new slot notes nothing; a stale
// one (its file let go of) is only slower.
struct HeldSlot {
    uint32_t index = UINT32_MAX;
    uint32_t generation = 0;
};

class SysfsReader {
public:
    virtual ~SysfsReader() = default;

    // Reads the whole of a small file into buf with a single read() and returns its length. A
    // file that fills the buffer is too long to be a value and is an error (EOVERFLOW).
    virtual Result<size_t> read_file(const std::string& path, char* buf, size_t size) = 0;

    // As read_file, for a file read again on every pass: the reader may keep it open between
    // reads. Errors are read_file's.
    virtual Result<size_t> read_held(const std::string& path, char* buf, size_t size) {
        return read_file(path, buf, size);
    }
    // The same, noting in `slot` where the file is held for the next read.
    virtual Result<size_t> read_held(const std::string& path, char* buf, size_t size,
                                     HeldSlot& slot) {
        (void)slot;
        return read_held(path, buf, size);
    }
    // Files under `dir` will not be read again (their device went away): let go of them.
    virtual void release(std::string_view dir) { (void)dir; }

    // Whether `path` exists (a device's folder, after a read of its files failed).
    virtual bool exists(const std::string& path);

    // Names of a directory's entries, without "." and "..", in no particular order.
    virtual Result<std::vector<std::string>> list_dir(const std::string& path) = 0;
    // As list_dir, for a directory listed on every pass: the reader may keep it open.
    virtual Result<std::vector<std::string>> list_held_dir(const std::string& path) {
        return list_dir(path);
    }
};

// The real thing: open(O_RDONLY|O_CLOEXEC), one read(), close(); opendir()/readdir(). With
// `max_held` > 0, read_held keeps up to that many files open and reads each again with one
// pread() at offset 0, which makes sysfs produce the value afresh (the way sysfs documents for
// re-reading an attribute): one system call and no path walk instead of three calls and a walk.
// Only for a mounted sysfs, whose files are never replaced: in a fixture tree a file renamed or
// replaced would go on being read through its old descriptor.
class PosixSysfsReader final : public SysfsReader {
public:
    // `max_held` bounds the files held by every PosixSysfsReader of the process together.
    explicit PosixSysfsReader(size_t max_held = 0) : max_held_(max_held) {}
    ~PosixSysfsReader() override;
    PosixSysfsReader(const PosixSysfsReader&) = delete;
    PosixSysfsReader& operator=(const PosixSysfsReader&) = delete;

    Result<size_t> read_file(const std::string& path, char* buf, size_t size) override;
    Result<size_t> read_held(const std::string& path, char* buf, size_t size) override;
    Result<size_t> read_held(const std::string& path, char* buf, size_t size,
                             HeldSlot& slot) override;
    void release(std::string_view dir) override;
    Result<std::vector<std::string>> list_dir(const std::string& path) override;
    // With `max_held` > 0, the directory stays open and is listed again from its start
    // (lseek to 0, then getdents64): no open, no close and no directory stream to allocate.
    Result<std::vector<std::string>> list_held_dir(const std::string& path) override;

    // Files held open now, and directories.
    size_t held() const { return by_path_.size(); }
    size_t held_dirs() const { return held_dirs_.size(); }

private:
    struct Held {
        std::string path;
        common::UniqueFd fd;
        uint32_t generation = 0;  // moves on when the entry is let go of
    };
    // Reads entry `index`; a failure other than a value too long lets go of it.
    Result<size_t> read_entry(uint32_t index, char* buf, size_t size);
    // Opens and reads `path`, holding it when there is room; notes where in `slot`.
    Result<size_t> open_and_hold(const std::string& path, char* buf, size_t size, HeldSlot& slot);
    void let_go(uint32_t index);

    size_t max_held_;
    std::vector<Held> held_;
    std::vector<uint32_t> free_;  // entries let go of, for reuse
    std::unordered_map<std::string, uint32_t> by_path_;
    std::unordered_map<std::string, common::UniqueFd> held_dirs_;
};

// Open files a sysfs reader may hold: a bounded share of the process's descriptor limit, so the
// daemon's sockets and other sources always have room.
size_t held_file_budget();

// Whether `root` is where a sysfs is mounted (not a fixture tree, a copy or a simulator's tree).
bool is_mounted_sysfs(const std::string& root);

}  // namespace rdmadiag::sysfs
