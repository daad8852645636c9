#include "cli/render/node_names.hpp"

namespace rdmadiag::cli::render {

NodeNames::NodeNames(const Snapshot& snap) {
    for (const auto& d : snap.devices) {
        const auto& desc = d.info.node_desc;
        if (d.info.device.starts_with("guid:") && desc && !desc->empty())
            names_.emplace(d.info.device, *desc);
    }
}

std::string NodeNames::device(const std::string& device) const {
    auto it = names_.find(device);
    return it == names_.end() ? device : it->second;
}

std::string NodeNames::port(const PortRef& ref) const {
    return device(ref.device) + ":" + std::to_string(ref.port);
}

std::string NodeNames::subject(const FindingSubject& subject) const {
    FindingSubject named = subject;
    named.device = device(subject.device);
    return named.to_string();
}

std::string NodeNames::port_with_key(const PortRef& ref) const {
    if (!names_.contains(ref.device)) return ref.to_string();
    return port(ref) + " (" + ref.to_string() + ")";
}

}  // namespace rdmadiag::cli::render
