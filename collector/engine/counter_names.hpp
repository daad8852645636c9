#pragma once
// Counter names, each kept once. A fabric has thousands of ports but only a few dozen counter
// names, so ports refer to names by a small id instead of holding their own copies.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "collector/model/counter_name.hpp"

namespace rdmadiag::engine {

class CounterNames {
public:
    // The name's id, adding it on first sight.
    uint32_t intern(std::string_view name);
    // The id of a name already seen.
    std::optional<uint32_t> find(std::string_view name) const;
    const std::string& name(uint32_t id) const { return names_[id].str(); }
    CounterName handle(uint32_t id) const { return names_[id]; }
    size_t size() const { return names_.size(); }

private:
    // The index's views point into the process-wide names, which never move.
    std::deque<CounterName> names_;
    std::unordered_map<std::string_view, uint32_t> ids_;
};

}  // namespace rdmadiag::engine
