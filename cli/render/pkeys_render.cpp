#include "cli/render/pkeys_render.hpp"

#include <algorithm>

#include "cli/render/format.hpp"
#include "cli/render/table.hpp"
#include "collector/json/pkey_state_json.hpp"
#include "collector/model/node_names.hpp"

namespace rdmadiag::cli::render {

bool port_matches(const PortRef& filter, const PortRef& port) {
    if (filter.device.empty()) return true;
    if (filter.device != port.device) return false;
    return filter.port == 0 || filter.port == port.port;
}

namespace {

std::string cell(const PKeyViewState& v, size_t index) {
    if (index >= v.table.keys.size()) return "";
    if (std::find(v.table.unreadable.begin(), v.table.unreadable.end(), index) !=
        v.table.unreadable.end()) {
        return "unreadable";
    }
    const auto raw = v.table.keys[index];
    if (pkey_is_empty(raw)) return "-";
    return format_pkey(raw) + (pkey_is_full(raw) ? " full" : " limited");
}

}  // namespace

std::string render_pkeys_text(const Snapshot& snap, const PKeysRenderOptions& opt) {
    std::string out;
    size_t shown = 0;
    const NodeNames names(snap);
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            if (!port_matches(opt.filter, p.ref)) continue;
            if (shown++ > 0) out += "\n";
            if (p.pkeys.views.empty()) {
                out += names.port_with_key(p.ref) + ": no P_Key table read\n";
                continue;
            }
            out += names.port_with_key(p.ref) + "\n";
            size_t rows = 0;
            std::vector<Column> cols{{"INDEX", Align::right}};
            for (const auto& v : p.pkeys.views) {
                std::string name(to_string(v.view));
                name.resize(6, ' ');
                out += "  " + name + "  generation " + std::to_string(v.generation) + "  " +
                       std::to_string(v.table.used()) + "/" + std::to_string(v.table.keys.size()) +
                       " used  changed " + clock_time(v.changed) + "\n";
                cols.push_back({upper(to_string(v.view))});
                rows = std::max(rows, v.table.keys.size());
            }
            Table t(cols);
            for (size_t i = 0; i < rows; ++i) {
                std::vector<std::string> r{std::to_string(i)};
                bool any = false;
                bool differ = false;
                std::string first;
                for (const auto& v : p.pkeys.views) {
                    auto c = cell(v, i);
                    if (!c.empty() && c != "-") any = true;
                    if (r.size() == 1) {
                        first = c;
                    } else if (c != first) {
                        differ = true;
                    }
                    r.push_back(std::move(c));
                }
                if (!any && !opt.show_empty) continue;
                if (differ) r[0] = "*" + r[0];
                t.add_row(std::move(r));
            }
            out += t.render();
        }
    }
    if (shown == 0) out = "No port matches.\n";
    return out;
}

codec::Json render_pkeys_json(const Snapshot& snap, const PKeysRenderOptions& opt) {
    auto ports = codec::Json::array();
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            if (!port_matches(opt.filter, p.ref)) continue;
            ports.push_back({{"device", p.ref.device}, {"port", p.ref.port}, {"pkeys", p.pkeys}});
        }
    }
    return {{"version", 1}, {"ports", std::move(ports)}};
}

}  // namespace rdmadiag::cli::render
