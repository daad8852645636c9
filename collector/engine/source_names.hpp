#pragma once
// The names of the sources a module has seen, each kept once: a view or a record holds a small
// index instead of a copy of the name (sources are few, views are many).

#include <cstdint>
#include <string>
#include <vector>

namespace rdmadiag::engine {

class SourceNames {
public:
    uint16_t index(const std::string& name) {
        for (size_t i = 0; i < names_.size(); ++i) {
            if (names_[i] == name) return static_cast<uint16_t>(i);
        }
        names_.push_back(name);
        return static_cast<uint16_t>(names_.size() - 1);
    }
    // The name at `index`, or an empty one for an index never given out.
    const std::string& name(uint16_t index) const {
        static const std::string kNone;
        return index < names_.size() ? names_[index] : kNone;
    }

private:
    std::vector<std::string> names_;
};

}  // namespace rdmadiag::engine
