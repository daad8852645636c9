#include "collector/model/consumer.hpp"

#include <algorithm>
#include <utility>

#include "collector/model/enum_names.hpp"

namespace rdmadiag {

namespace {

constexpr std::pair<ConsumerKind, std::string_view> kKindNames[] = {
    {ConsumerKind::ipoib, "ipoib"},
    {ConsumerKind::srp, "srp"},
    {ConsumerKind::cm_id, "cm_id"},
    {ConsumerKind::qp, "qp"},
};

constexpr std::pair<IndexSource, std::string_view> kIndexSourceNames[] = {
    {IndexSource::none, "none"},
    {IndexSource::inferred, "inferred"},
    {IndexSource::reported, "reported"},
};

}  // namespace

std::string_view to_string(ConsumerKind kind) {
    return detail::enum_name<ConsumerKind>(kKindNames, kind, "unknown");
}

std::optional<ConsumerKind> parse_consumer_kind(std::string_view text) {
    return detail::enum_parse<ConsumerKind>(kKindNames, text);
}

std::string_view to_string(IndexSource source) {
    return detail::enum_name<IndexSource>(kIndexSourceNames, source, "none");
}

std::optional<IndexSource> parse_index_source(std::string_view text) {
    return detail::enum_parse<IndexSource>(kIndexSourceNames, text);
}

namespace {

template <class Match>
std::vector<Consumer> consumers_where(const HostConsumers& host, const PortRef& port,
                                      Match&& match) {
    std::vector<Consumer> out;
    for (const auto& inv : host.devices) {
        if (inv.device != port.device) continue;
        for (const auto& c : inv.consumers)
            if (c.port == port.port && match(c)) out.push_back(c);
    }
    return out;
}

}  // namespace

std::vector<Consumer> consumers_using_pkey(const HostConsumers& host, const PortRef& port,
                                           uint16_t pkey) {
    return consumers_where(host, port, [&](const Consumer& c) {
        return c.pkey && !pkey_is_empty(*c.pkey) && pkey_base(*c.pkey) == pkey_base(pkey);
    });
}

std::vector<Consumer> consumers_using_gid(const HostConsumers& host, const PortRef& port,
                                          const Gid& gid) {
    return consumers_where(host, port, [&](const Consumer& c) { return c.gid == gid; });
}

std::vector<uint16_t> keys_touched(const PKeyEntryChange& change) {
    std::vector<uint16_t> out;
    for (auto key : {change.old_key, change.new_key, change.previous_key.value_or(0)}) {
        if (pkey_is_empty(key)) continue;
        const bool seen = std::any_of(out.begin(), out.end(),
                                      [&](uint16_t k) { return pkey_base(k) == pkey_base(key); });
        if (!seen) out.push_back(key);
    }
    return out;
}

}  // namespace rdmadiag
