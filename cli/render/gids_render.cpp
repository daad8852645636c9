#include "cli/render/gids_render.hpp"

#include <algorithm>
#include <set>

#include "cli/render/format.hpp"
#include "cli/render/table.hpp"
#include "collector/engine/gid/gid_table_diff.hpp"
#include "collector/json/gid_json.hpp"
#include "collector/model/node_names.hpp"

namespace rdmadiag::cli::render {

std::string format_gid_entry(const GidEntry& e) {
    std::string s = e.gid.to_string();
    if (e.type != GidType::ib) s += "  " + std::string(to_string(e.type));
    if (!e.ndev.empty()) s += "  " + e.ndev;
    return s;
}

namespace {

std::string events_line(const PortGidState& g) {
    std::string s = "  events  GID_CHANGE " + std::to_string(g.gid_change_events);
    if (g.last_gid_change) s += " (last " + clock_time(*g.last_gid_change) + ")";
    s += "  CLIENT_REREGISTER " + std::to_string(g.client_reregister_events);
    if (g.last_client_reregister) s += " (last " + clock_time(*g.last_client_reregister) + ")";
    return s + "\n";
}

void render_port(const PortSnapshot& p, const NodeNames& names, std::string& out) {
    const auto& g = *p.gids;
    out += names.port_with_key(p.ref) + "  cache " + std::string(to_string(g.coherence));
    if (!g.note.empty()) out += " (" + g.note + ")";
    out += "\n" + events_line(g);
    std::vector<const GidViewState*> indexed;
    const GidViewState* netdev = nullptr;
    for (const auto& v : g.views) {
        std::string name(to_string(v.view));
        name.resize(6, ' ');
        const size_t n = v.table.entries.size();
        out += "  " + name + "  generation " + std::to_string(v.generation) + "  " +
               std::to_string(n) + (n == 1 ? " GID" : " GIDs") + "  changed " +
               clock_time(v.changed) + "  read " + clock_time(v.confirmed) + " by " + v.source;
        if (!v.table.unreadable.empty()) {
            out += "  " + std::to_string(v.table.unreadable.size()) + " unreadable";
        }
        out += "\n";
        if (v.view == GidView::netdev) {
            netdev = &v;
        } else {
            indexed.push_back(&v);
        }
    }
    if (!indexed.empty()) {
        std::vector<Column> cols{{"INDEX", Align::right}};
        std::set<uint16_t> indexes;
        for (const auto* v : indexed) {
            cols.push_back({upper(to_string(v->view))});
            for (const auto& e : v->table.entries) indexes.insert(e.index);
        }
        Table t(cols);
        for (uint16_t i : indexes) {
            std::vector<std::string> r{std::to_string(i)};
            bool differ = false;
            for (const auto* v : indexed) {
                const GidEntry* e = v->table.at(i);
                std::string c = e ? format_gid_entry(*e) : "-";
                if (r.size() > 1 && e && v->view != GidView::cache) {
                    // The port's views hold GIDs only: compare values.
                    const GidEntry* first = indexed.front()->table.at(i);
                    differ = differ || first == nullptr || !(first->gid == e->gid);
                }
                r.push_back(std::move(c));
            }
            if (differ) r[0] = "*" + r[0];
            t.add_row(std::move(r));
        }
        out += t.render();
    }
    if (netdev != nullptr) {
        const auto* cache = g.find(GidView::cache);
        out += "  netdev addresses:\n";
        for (const auto& e : netdev->table.entries) {
            bool held = false;
            if (cache != nullptr) {
                for (const auto& c : cache->table.entries)
                    held = held || (c.gid == e.gid && c.ndev == e.ndev);
            }
            out += "    " + e.gid.to_string() + "  " + e.ndev +
                   (cache == nullptr || held ? "" : "  (not in the cache)") + "\n";
        }
    }
    for (const auto& d : g.last_changes) {
        out += "  last change of " + std::string(to_string(d.view)) + ": generation " +
               std::to_string(d.new_generation) + " at " + clock_time(d.time) + ": " +
               engine::gid::describe_gid_diff(d, 2) + "\n";
    }
}

}  // namespace

std::string render_gids_text(const Snapshot& snap, const PortRef& filter) {
    std::string out;
    size_t shown = 0;
    const NodeNames names(snap);
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            if (!port_matches(filter, p.ref)) continue;
            if (shown++ > 0) out += "\n";
            if (p.gids->views.empty()) {
                out += names.port_with_key(p.ref) + ": no GIDs read\n";
                continue;
            }
            render_port(p, names, out);
        }
    }
    if (shown == 0) out = "No port matches.\n";
    return out;
}

codec::Json render_gids_json(const Snapshot& snap, const PortRef& filter) {
    auto ports = codec::Json::array();
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            if (!port_matches(filter, p.ref)) continue;
            ports.push_back({{"device", p.ref.device}, {"port", p.ref.port}, {"gids", *p.gids}});
        }
    }
    return {{"version", 1}, {"ports", std::move(ports)}};
}

}  // namespace rdmadiag::cli::render
