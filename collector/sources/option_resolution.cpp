#include <vector>

#include "collector/sources/source_registry.hpp"

namespace rdmadiag::sources {

namespace {

struct Declared {
    std::string_view source;
    const OptionSpec* spec;
};

const Declared* declared(const std::vector<Declared>& all, std::string_view key) {
    for (const auto& d : all) {
        if (d.spec->key == key) return &d;
    }
    return nullptr;
}

Error in_source(std::string_view source, const Error& e) {
    return make_error(std::string(source) + " source: " + e.message, e.code ? e.code : EINVAL);
}

// An unknown key names what its source does take, so a typo shows its fix.
Error unknown_option(const std::vector<Declared>& all, std::string_view key) {
    const auto dot = key.find('.');
    const std::string_view prefix = key.substr(0, dot == std::string_view::npos ? 0 : dot + 1);
    std::string known;
    for (const auto& d : all) {
        if (prefix.empty() || !d.spec->key.starts_with(prefix)) continue;
        known += (known.empty() ? "" : ", ") + std::string(d.spec->key);
    }
    std::string msg = "unknown source option '" + std::string(key) + "'";
    if (!known.empty()) msg += " (known: " + known + ")";
    return make_error(msg, EINVAL);
}

Result<void> resolve(const std::vector<Declared>& all, SourceSettings& settings) {
    OptionValues values;
    for (const auto& [key, text] : settings.extra) {
        const Declared* d = declared(all, key);
        if (!d) return unknown_option(all, key);
        auto v = parse_option(*d->spec, text);
        if (!v) return in_source(d->source, v.error());
        values.set(key, std::move(*v), true);
    }
    for (const auto& d : all) {
        if (values.given(d.spec->key) || d.spec->default_text.empty()) continue;
        auto v = parse_option(*d.spec, d.spec->default_text);
        if (!v) return in_source(d.source, v.error());  // a declaration's own mistake
        values.set(std::string(d.spec->key), std::move(*v), false);
    }
    settings.options = std::move(values);
    // Checks see every value, since one option may depend on another.
    for (const auto& [key, text] : settings.extra) {
        const Declared* d = declared(all, key);
        if (!d->spec->check) continue;
        auto value = parse_option(*d->spec, text);
        if (auto r = d->spec->check(*value, settings); !r) return in_source(d->source, r.error());
    }
    return {};
}

std::vector<Declared> declarations(const SourceRegistry& registry) {
    std::vector<Declared> all;
    for (const auto& e : registry.entries()) {
        for (const auto& spec : e.options) all.push_back({e.name, &spec});
    }
    return all;
}

}  // namespace

FoundOption SourceRegistry::find_option(std::string_view key) const {
    for (const auto& e : entries_) {
        for (const auto& spec : e.options) {
            if (spec.key == key) return {&e, &spec};
        }
    }
    return {};
}

Result<void> resolve_source_options(const SourceRegistry& registry, SourceSettings& settings) {
    return resolve(declarations(registry), settings);
}

Result<void> resolve_source_options(std::string_view source, std::span<const OptionSpec> specs,
                                    SourceSettings& settings) {
    std::vector<Declared> all;
    for (const auto& spec : specs) all.push_back({source, &spec});
    return resolve(all, settings);
}

Result<void> check_source_option(const SourceRegistry& registry, std::string_view key,
                                 std::string_view value) {
    const auto found = registry.find_option(key);
    if (!found.spec) return unknown_option(declarations(registry), key);
    auto v = parse_option(*found.spec, value);
    if (!v) return in_source(found.source->name, v.error());
    return {};
}

}  // namespace rdmadiag::sources
