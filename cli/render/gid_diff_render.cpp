#include "cli/render/gid_diff_render.hpp"

#include "cli/render/consumers_render.hpp"
#include "cli/render/gids_render.hpp"
#include "cli/render/pkeys_render.hpp"
#include "collector/json/consumer_json.hpp"
#include "collector/json/gid_json.hpp"

namespace rdmadiag::cli::render {

namespace {

std::string index_column(uint16_t index) {
    const std::string idx = std::to_string(index);
    return "  " + std::string(idx.size() < 5 ? 5 - idx.size() : 0, ' ') + idx + "  ";
}

const GidEntry* at_index(const std::vector<GidEntry>& entries, uint16_t index) {
    for (const auto& e : entries) {
        if (e.index == index) return &e;
    }
    return nullptr;
}

// Indexed views: an index in both lists changed value; the others were emptied or filled.
void indexed_lines(const GidDiff& d, std::string& out) {
    for (const auto& r : d.removed) {
        if (const GidEntry* a = at_index(d.added, r.index)) {
            out += index_column(r.index) + "changed  " + format_gid_entry(r) + " -> " +
                   format_gid_entry(*a) + "\n";
        } else {
            out += index_column(r.index) + "removed  " + format_gid_entry(r) + "\n";
        }
    }
    for (const auto& a : d.added) {
        if (at_index(d.removed, a.index) == nullptr) {
            out += index_column(a.index) + "added    " + format_gid_entry(a) + "\n";
        }
    }
}

void netdev_lines(const GidDiff& d, std::string& out) {
    for (const auto& r : d.removed) out += "  removed  " + format_gid_entry(r) + "\n";
    for (const auto& a : d.added) out += "  added    " + format_gid_entry(a) + "\n";
}

}  // namespace

std::string render_gid_diff(const GidDiff& d, const Snapshot* consumers) {
    std::string s = d.port.to_string() + "  " + std::string(to_string(d.view)) + " generation " +
                    std::to_string(d.old_generation) + " -> " + std::to_string(d.new_generation) +
                    "  at " + format_time(d.time) + "\n";
    if (d.removed.empty() && d.added.empty()) s += "  (no entry changed)\n";
    if (d.view == GidView::netdev) {
        netdev_lines(d, s);
    } else {
        indexed_lines(d, s);
    }
    if (consumers) {
        for (const auto& r : d.removed) {
            const std::string of = consumers_of_gid(*consumers, d.port, r.gid);
            if (!of.empty()) s += "  " + r.gid.to_string() + " was used by " + of + "\n";
        }
    }
    return s;
}

codec::Json gid_diff_json_with_consumers(const GidDiff& d, const Snapshot& snapshot) {
    codec::Json j = d;
    if (!snapshot.consumers) return j;  // no consumers source: nothing known of who is hit
    auto hit = codec::Json::array();
    for (const auto& r : d.removed) {
        auto of = codec::Json::array();
        for (const auto& c : consumers_using_gid(*snapshot.consumers, d.port, r.gid))
            of.push_back(c);
        hit.push_back({{"gid", r.gid.to_string()}, {"consumers", std::move(of)}});
    }
    j["hit"] = std::move(hit);
    return j;
}

std::string render_gid_diffs_text(const Snapshot& snapshot, const PortRef& filter) {
    std::string out;
    for (const auto& dev : snapshot.devices) {
        for (const auto& port : dev.ports) {
            const auto& g = *port.gids;
            if (!port_matches(filter, port.ref) || g.views.empty()) continue;
            for (const auto& d : g.last_changes) out += render_gid_diff(d, &snapshot);
            if (g.last_changes.empty()) out += port.ref.to_string() + "  no change seen\n";
            out += "  cache: " + std::string(to_string(g.coherence));
            if (!g.note.empty()) out += " (" + g.note + ")";
            out += "\n";
        }
    }
    if (out.empty()) out = "no GIDs read\n";
    return out;
}

codec::Json render_gid_diffs_json(const Snapshot& snapshot, const PortRef& filter) {
    auto ports = codec::Json::array();
    for (const auto& dev : snapshot.devices) {
        for (const auto& port : dev.ports) {
            const auto& g = *port.gids;
            if (!port_matches(filter, port.ref) || g.views.empty()) continue;
            codec::Json p{{"device", port.ref.device},
                          {"port", port.ref.port},
                          {"coherence", to_string(g.coherence)},
                          {"note", g.note}};
            auto changes = codec::Json::array();
            for (const auto& d : g.last_changes)
                changes.push_back(gid_diff_json_with_consumers(d, snapshot));
            p["last_changes"] = std::move(changes);
            ports.push_back(std::move(p));
        }
    }
    return codec::Json{{"version", 1}, {"ports", std::move(ports)}};
}

}  // namespace rdmadiag::cli::render
