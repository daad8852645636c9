#pragma once
// The names a person knows nodes by. A subnet sweep names each node by its GUID
// ("guid:0x0008f10400000001"), stable but unreadable; tables show its NodeDescription ("Leaf017",
// "node0421 HCA-1") instead. Local devices keep their own names (mlx5_0), which is what an
// administrator on the host knows them by.

#include <string>
#include <string_view>
#include <unordered_map>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

class NodeNames {
public:
    explicit NodeNames(const Snapshot& snap);

    std::string device(const std::string& device) const;  // "Leaf017", "mlx5_0"
    std::string port(const PortRef& ref) const;           // "Leaf017:3"
    std::string subject(const FindingSubject& subject) const;
    // "Leaf017:3 (guid:0x0008f10400000001:3)" where the name is not the key, else the key.
    std::string port_with_key(const PortRef& ref) const;

private:
    std::unordered_map<std::string, std::string> names_;
};

}  // namespace rdmadiag::cli::render
