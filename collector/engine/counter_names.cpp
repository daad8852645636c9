#include "collector/engine/counter_names.hpp"

namespace rdmadiag::engine {

uint32_t CounterNames::intern(std::string_view name) {
    if (auto it = ids_.find(name); it != ids_.end()) return it->second;
    const auto id = static_cast<uint32_t>(names_.size());
    const std::string& kept = names_.emplace_back(name).str();
    ids_.emplace(std::string_view(kept), id);
    return id;
}

std::optional<uint32_t> CounterNames::find(std::string_view name) const {
    auto it = ids_.find(name);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
}

}  // namespace rdmadiag::engine
