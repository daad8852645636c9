#pragma once
// The subset of YAML that rdmadiag's configuration files use: block mappings and sequences by
// indentation, plain / 'single' / "double" quoted scalars, flow sequences of scalars ([a, b]),
// comments. Anchors, tags, multi-line scalars and flow mappings are refused with a line number
// rather than misread.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag::common {

struct YamlNode {
    // Defined out of line: an implicit constructor makes clang's libstdc++ check whether a
    // YamlNode can be default-constructed while std::pair<std::string, YamlNode> (a member of
    // YamlNode) is still being instantiated, which does not compile.
    YamlNode();

    enum class Kind { null, scalar, map, list };
    Kind kind = Kind::null;
    std::string scalar;
    std::vector<std::pair<std::string, YamlNode>> map;  // in file order
    std::vector<YamlNode> list;
    int line = 0;

    const YamlNode* get(std::string_view key) const;
    bool is_scalar() const { return kind == Kind::scalar; }
    bool is_map() const { return kind == Kind::map; }
    bool is_list() const { return kind == Kind::list; }
    bool is_null() const { return kind == Kind::null; }
};

Result<YamlNode> parse_simple_yaml(std::string_view text);

}  // namespace rdmadiag::common
