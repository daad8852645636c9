#include "cli/render/counters_render.hpp"

#include "cli/render/format.hpp"
#include "cli/render/pkeys_render.hpp"
#include "cli/render/table.hpp"
#include "collector/json/model_json.hpp"
#include "collector/model/node_names.hpp"

namespace rdmadiag::cli::render {

std::string render_counters_text(const Snapshot& snap, const CountersRenderOptions& opt) {
    std::string out;
    size_t shown = 0;
    const NodeNames names(snap);
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            if (!port_matches(opt.filter, p.ref)) continue;
            if (shown++ > 0) out += "\n";
            out += names.port_with_key(p.ref) + ":\n";
            Table t({{"COUNTER"},
                     {"KIND"},
                     {"BITS", Align::right},
                     {"VALUE", Align::right},
                     {"TOTAL", Align::right},
                     {"NOTE"}});
            for (const auto& c : p.counters) {
                if (c.kind == CounterKind::hw && !opt.include_hw) continue;
                std::string note;
                if (c.saturated) note = "saturated";
                if (c.resets > 0) {
                    note += (note.empty() ? "" : ", ") + std::to_string(c.resets) + " reset" +
                            (c.resets == 1 ? "" : "s");
                }
                if (c.wraps > 0) {
                    note += (note.empty() ? "" : ", ") + std::to_string(c.wraps) + " wrap" +
                            (c.wraps == 1 ? "" : "s");
                }
                t.add_row({c.name, std::string(to_string(c.kind)), std::to_string(c.width),
                           std::to_string(c.raw), std::to_string(c.total), note});
            }
            out += t.empty() ? "  no counters read\n" : t.render();
        }
    }
    if (shown == 0) out = "No port matches.\n";
    return out;
}

codec::Json render_counters_json(const Snapshot& snap, const CountersRenderOptions& opt) {
    auto ports = codec::Json::array();
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            if (!port_matches(opt.filter, p.ref)) continue;
            auto counters = codec::Json::array();
            for (const auto& c : p.counters) {
                if (c.kind == CounterKind::hw && !opt.include_hw) continue;
                counters.push_back(c);
            }
            ports.push_back({{"device", p.ref.device},
                             {"port", p.ref.port},
                             {"counters", std::move(counters)}});
        }
    }
    return {{"version", 1}, {"ports", std::move(ports)}};
}

}  // namespace rdmadiag::cli::render
