#include "collector/sim/shipped_scenarios.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "collector/sim/scenario_parser.hpp"

namespace rdmadiag::sim {

// Defined in the file generated from scenarios/*.scn (embed_scenarios.cmake).
std::span<const ShippedScenario> embedded_scenarios();

namespace {

constexpr std::streamsize kMaxScenarioBytes = 4 << 20;

Result<Scenario> parse_named(std::string_view text, const std::string& name) {
    auto sc = parse_scenario(text);
    if (!sc) return make_error(name + ":" + sc.error().message);
    sc->name = name;
    if (sc->partitions_conf) sc->partitions_conf->path = name + ".scn";
    return sc;
}

std::string shipped_names() {
    std::string out;
    for (const auto& s : shipped_scenarios()) {
        if (!out.empty()) out += ", ";
        out += s.name;
    }
    return out;
}

std::string file_stem(std::string_view path) {
    auto slash = path.rfind('/');
    if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
    auto dot = path.rfind('.');
    if (dot != std::string_view::npos && dot > 0) path = path.substr(0, dot);
    return std::string(path);
}

}  // namespace

std::span<const ShippedScenario> shipped_scenarios() {
    return embedded_scenarios();
}

const ShippedScenario* find_shipped_scenario(std::string_view name) {
    for (const auto& s : shipped_scenarios()) {
        if (s.name == name) return &s;
    }
    return nullptr;
}

Result<Scenario> load_shipped_scenario(std::string_view name) {
    const auto* s = find_shipped_scenario(name);
    if (s == nullptr) {
        return make_error("no shipped scenario '" + std::string(name) +
                          "' (shipped: " + shipped_names() + ")");
    }
    return parse_named(s->text, std::string(s->name));
}

Result<Scenario> load_scenario(std::string_view spec) {
    if (spec.empty()) return load_shipped_scenario(kDefaultScenario);
    if (find_shipped_scenario(spec) != nullptr) return load_shipped_scenario(spec);
    const bool looks_like_path = spec.find('/') != std::string_view::npos ||
                                 (spec.size() > 4 && spec.substr(spec.size() - 4) == ".scn");
    if (!looks_like_path) {
        return make_error("no shipped scenario '" + std::string(spec) +
                          "' (shipped: " + shipped_names() + "; or give a path to a .scn file)");
    }
    const std::string path(spec);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        return make_error("cannot open scenario " + path + ": " + std::strerror(err), err);
    }
    std::string text;
    text.resize(static_cast<size_t>(kMaxScenarioBytes) + 1);
    in.read(text.data(), kMaxScenarioBytes + 1);
    if (in.bad()) return make_error("cannot read scenario " + path);
    text.resize(static_cast<size_t>(in.gcount()));
    if (static_cast<std::streamsize>(text.size()) > kMaxScenarioBytes) {
        return make_error("scenario " + path + " is larger than 4 MiB");
    }
    auto sc = parse_scenario(text);
    if (!sc) return make_error(path + ":" + sc.error().message);
    sc->name = file_stem(path);
    if (sc->partitions_conf) sc->partitions_conf->path = path;
    return sc;
}

}  // namespace rdmadiag::sim
