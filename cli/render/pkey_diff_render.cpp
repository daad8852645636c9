#include "cli/render/pkey_diff_render.hpp"

#include "cli/render/consumers_render.hpp"
#include "collector/json/consumer_json.hpp"
#include "collector/json/pkey_diff_json.hpp"

namespace rdmadiag::cli::render {

namespace {

std::string membership(uint16_t key) {
    return pkey_is_full(key) ? "full" : "limited";
}

std::string reused(const PKeyEntryChange& c) {
    return c.previous_key ? " (reuses the index of " + format_pkey(*c.previous_key) + ")" : "";
}

std::string change_line(const PKeyEntryChange& c) {
    const std::string idx = std::to_string(c.index);
    std::string pad(idx.size() < 5 ? 5 - idx.size() : 0, ' ');
    std::string s = "  " + pad + idx + "  ";
    switch (c.kind) {
        case PKeyChangeKind::added:
            return s + "added    " + format_pkey(c.new_key) + " " + membership(c.new_key) +
                   reused(c);
        case PKeyChangeKind::removed:
            return s + "removed  " + format_pkey(c.old_key) + " " + membership(c.old_key);
        case PKeyChangeKind::moved:
            return s + "moved    " + format_pkey(c.new_key) + " from index " +
                   std::to_string(c.old_index.value_or(0)) + reused(c);
        case PKeyChangeKind::membership_changed:
            return s + "member   " + format_pkey(c.old_key) + " " + membership(c.old_key) + " -> " +
                   format_pkey(c.new_key) + " " + membership(c.new_key);
    }
    return s;
}

}  // namespace

std::string render_pkey_diff(const PKeyDiff& d, const Snapshot* consumers) {
    std::string s = d.port.to_string() + "  " + std::string(to_string(d.view)) + " generation " +
                    std::to_string(d.old_generation) + " -> " + std::to_string(d.new_generation) +
                    "  at " + format_time(d.time) + "\n";
    if (d.changes.empty()) s += "  (no index changed)\n";
    for (const auto& c : d.changes) {
        s += change_line(c) + "\n";
        if (!consumers) continue;
        std::string hit;
        for (auto key : keys_touched(c)) {
            const std::string of = consumers_of_pkey(*consumers, d.port, key);
            if (!of.empty()) hit += (hit.empty() ? "" : ", ") + of;
        }
        if (!hit.empty()) s += "         used by " + hit + "\n";
    }
    return s;
}

codec::Json pkey_diff_json_with_consumers(const PKeyDiff& d, const Snapshot& snapshot) {
    codec::Json j = d;
    if (!snapshot.consumers) return j;  // no consumers source: nothing known of who is hit
    auto hit = codec::Json::array();
    for (const auto& c : d.changes) {
        auto of = codec::Json::array();
        for (auto key : keys_touched(c))
            for (const auto& consumer : consumers_using_pkey(*snapshot.consumers, d.port, key))
                of.push_back(consumer);
        hit.push_back({{"index", c.index}, {"consumers", std::move(of)}});
    }
    j["hit"] = std::move(hit);
    return j;
}

std::string render_pkey_diffs_text(const Snapshot& snapshot, const PKeysRenderOptions& options) {
    std::string out;
    for (const auto& dev : snapshot.devices) {
        for (const auto& port : dev.ports) {
            if (!port_matches(options.filter, port.ref)) continue;
            if (port.pkeys.views.empty()) continue;
            if (port.pkeys.last_diff) {
                out += render_pkey_diff(*port.pkeys.last_diff, &snapshot);
            } else {
                out += port.ref.to_string() + "  no change seen\n";
            }
            out += "  cache: " + std::string(to_string(port.pkeys.cache));
            if (!port.pkeys.cache_note.empty()) out += " (" + port.pkeys.cache_note + ")";
            out += "\n";
        }
    }
    if (out.empty()) out = "no P_Key tables\n";
    return out;
}

codec::Json render_pkey_diffs_json(const Snapshot& snapshot, const PKeysRenderOptions& options) {
    auto ports = codec::Json::array();
    for (const auto& dev : snapshot.devices) {
        for (const auto& port : dev.ports) {
            if (!port_matches(options.filter, port.ref) || port.pkeys.views.empty()) continue;
            codec::Json p{{"device", port.ref.device},
                          {"port", port.ref.port},
                          {"cache", to_string(port.pkeys.cache)},
                          {"cache_note", port.pkeys.cache_note}};
            p["last_diff"] = port.pkeys.last_diff
                                 ? pkey_diff_json_with_consumers(*port.pkeys.last_diff, snapshot)
                                 : codec::Json(nullptr);
            ports.push_back(std::move(p));
        }
    }
    return codec::Json{{"ports", std::move(ports)}};
}

}  // namespace rdmadiag::cli::render
