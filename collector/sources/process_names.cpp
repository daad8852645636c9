#include "collector/sources/process_names.hpp"

#include <filesystem>
#include <fstream>

namespace rdmadiag::sources {

bool ProcessNames::available() {
    if (!procfs_there_) {
        std::error_code ec;
        procfs_there_ = std::filesystem::is_directory(procfs_, ec);
    }
    return *procfs_there_;
}

std::optional<std::string> ProcessNames::comm(uint32_t pid) {
    if (!available()) return std::nullopt;
    auto [it, fresh] = known_.try_emplace(pid);
    if (fresh) {
        std::ifstream in(procfs_ + "/" + std::to_string(pid) + "/comm");
        std::string name;
        if (in && std::getline(in, name)) it->second = name;
    }
    return it->second;
}

}  // namespace rdmadiag::sources
