#pragma once
// A folder whose value files are read one after another. The path is rebuilt in one buffer, and
// the error subject ("mlx5_0:1 counters/symbol_error") is only built when there is an error.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rdmadiag::sysfs {

class Folder {
public:
    // `owner_dir`: the folder of the device, or of its port `port` (0: the device's own files);
    // `folder`: the folder's name below it ("" for that folder itself). Every view must outlive
    // the Folder.
    Folder(std::string_view owner_dir, std::string_view folder, std::string_view device,
           uint32_t port = 0)
        : device_(device), port_(port), folder_(folder) {
        path_.reserve(owner_dir.size() + folder.size() + 32);
        path_ += owner_dir;
        if (!folder.empty()) {
            path_ += '/';
            path_ += folder;
        }
        dir_size_ = path_.size();
        path_ += '/';
        base_ = path_.size();
    }
    const std::string& path(std::string_view name) {
        path_.resize(base_);
        path_ += name;
        return path_;
    }
    std::string subject(std::string_view name) const {
        std::string out(device_);
        if (port_ != 0) (out += ':') += std::to_string(port_);
        out += ' ';
        if (!folder_.empty()) (out += folder_) += '/';
        return out += name;
    }
    std::string dir() const { return path_.substr(0, dir_size_); }
    std::string_view device() const { return device_; }
    std::string_view folder() const { return folder_; }

private:
    std::string path_;
    size_t dir_size_ = 0;
    size_t base_ = 0;
    std::string_view device_;
    uint32_t port_;
    std::string_view folder_;
};

}  // namespace rdmadiag::sysfs
