#include "collector/model/node_names.hpp"

#include <algorithm>
#include <cstdio>

namespace rdmadiag {

namespace {
constexpr std::string_view kGuidPrefix = "guid:";
constexpr std::string_view kExactGuidPrefix = "guid:0x";
}  // namespace

std::string guid_device_name(uint64_t node_guid) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "guid:0x%016llx", static_cast<unsigned long long>(node_guid));
    return buf;
}

bool is_guid_name(std::string_view device) {
    return device.starts_with(kGuidPrefix);
}

bool is_exact_guid_name(std::string_view device) {
    if (!device.starts_with(kExactGuidPrefix)) return false;
    const auto hex = device.substr(kExactGuidPrefix.size());
    return hex.size() == 16 && std::all_of(hex.begin(), hex.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

void NodeNames::set(const Snapshot& snapshot) {
    names_.clear();
    for (const auto& d : snapshot.devices) update(d);
}

void NodeNames::update(const DeviceSnapshot& device) {
    const auto& desc = device.info.node_desc;
    if (desc && !desc->empty() && is_guid_name(device.info.device)) {
        names_.insert_or_assign(device.info.device, *desc);
    } else {
        remove(device.info.device);
    }
}

void NodeNames::remove(std::string_view device) {
    if (auto it = names_.find(device); it != names_.end()) names_.erase(it);
}

const std::string* NodeNames::find(std::string_view device) const {
    const auto it = names_.find(device);
    return it == names_.end() ? nullptr : &it->second;
}

std::string NodeNames::node(std::string_view device) const {
    const auto* name = find(device);
    return name ? *name : std::string(device);
}

std::string NodeNames::port(const PortRef& ref) const {
    return node(ref.device) + ":" + std::to_string(ref.port);
}

std::string NodeNames::port_with_key(const PortRef& ref) const {
    if (!find(ref.device)) return ref.to_string();
    return port(ref) + " (" + ref.to_string() + ")";
}

std::string NodeNames::subject(const FindingSubject& subject) const {
    FindingSubject named = subject;
    named.device = node(subject.device);
    return named.to_string();
}

}  // namespace rdmadiag
