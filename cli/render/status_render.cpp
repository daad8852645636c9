#include "cli/render/status_render.hpp"

#include <map>

#include "cli/render/findings_render.hpp"
#include "cli/render/format.hpp"
#include "cli/render/mr_health_render.hpp"
#include "cli/render/table.hpp"
#include "collector/json/json_fields.hpp"
#include "collector/json/snapshot_json.hpp"
#include "collector/model/node_names.hpp"

namespace rdmadiag::cli::render {

namespace {

// The GIDs the kernel's cache holds (or, where it is not read, the port's), and whether the cache
// agrees with the port: "2 ok", "2 stale", "1" when it cannot be judged.
std::string gid_cell(const PortSnapshot& p) {
    const auto* v = p.gids->find(GidView::cache);
    if (v == nullptr) v = p.gids->find(GidView::sma);
    if (v == nullptr) return "-";
    std::string s = std::to_string(v->table.entries.size());
    switch (p.gids->coherence) {
        case GidCoherence::coherent:
            return s + " ok";
        case GidCoherence::pending:
            return s + " pending";
        case GidCoherence::stale:
            return s + " stale";
        case GidCoherence::unknown:
            return s;
    }
    return s;
}

}  // namespace

std::string render_status_text(const Snapshot& snap, const std::string& origin) {
    std::string out = "rdmadiag status at " + format_time(snap.time) + " (" + origin + ")\n\n";
    if (snap.devices.empty()) {
        out += "No RDMA devices seen.\n";
    } else {
        const NodeNames names(snap);
        Table devices({{"DEVICE"},
                       {"NAME"},
                       {"TYPE"},
                       {"TRANSPORT"},
                       {"FIRMWARE"},
                       {"NODE GUID"},
                       {"PORTS", Align::right}});
        Table ports({{"PORT"},
                     {"STATE"},
                     {"LINK"},
                     {"LID", Align::right},
                     {"RATE"},
                     {"PKEYS", Align::right},
                     {"GIDS"},
                     {"VIOLATIONS", Align::right},
                     {"ERRORS", Align::right}});
        bool any_saturated = false;
        for (const auto& d : snap.devices) {
            std::string name = d.info.device + (d.present ? "" : " (gone)");
            devices.add_row({name, or_dash(d.info.node_desc), or_dash(d.info.node_type),
                             std::string(to_string(d.info.transport)), or_dash(d.info.fw_ver),
                             d.info.node_guid ? codec::guid_text(*d.info.node_guid) : "-",
                             std::to_string(d.ports.size())});
            for (const auto& p : d.ports) {
                const auto* dev_view = p.pkeys.find(PKeyView::device);
                if (!dev_view) dev_view = p.pkeys.find(PKeyView::sma);
                std::string pkeys = "-";
                if (dev_view) {
                    pkeys = std::to_string(dev_view->table.used()) + "/" +
                            std::to_string(dev_view->table.keys.size());
                }
                const auto sum = summarize_counters(p);
                std::string viol = or_dash(sum.violations);
                if (sum.violations_saturated) {
                    viol += "*";
                    any_saturated = true;
                }
                std::string state = p.info.state ? std::string(to_string(*p.info.state)) : "-";
                if (!p.present) state = "GONE";
                ports.add_row({names.port(p.ref), state, link_short(p.info.link_layer),
                               or_dash(p.info.lid), short_rate(p.info.rate), pkeys, gid_cell(p),
                               viol, or_dash(sum.errors)});
            }
        }
        out += devices.render() + "\n" + ports.render();
        if (any_saturated) {
            out += "* a counter is saturated: new P_Key violations are no longer counted\n";
        }
    }

    out += "\n" + render_mr_health_line(snap);

    out += "\n" + render_findings_summary(snap);

    out += "\nSources:";
    bool first = true;
    for (const auto& s : snap.sources) {
        out += first ? " " : "; ";
        first = false;
        out += s.name + (s.up ? " up" : " down");
        if (!s.reason.empty()) out += " (" + s.reason + ")";
        if (s.errors > 0) out += ", " + std::to_string(s.errors) + " unreadable values";
    }
    if (first) out += " none";
    out += "\n";
    return out;
}

codec::Json render_status_json(const Snapshot& snap, const std::string& origin) {
    auto j = codec::snapshot_to_json(snap);
    codec::Json out = codec::Json::object();
    out["version"] = j["version"];
    out["time"] = j["time"];
    out["origin"] = origin;
    out["devices"] = std::move(j["devices"]);
    out["sources"] = std::move(j["sources"]);
    out["findings"] = std::move(j["findings"]);
    out["mrs"] = std::move(j["mrs"]);
    const auto coverage = mr_health_coverage(snap);
    out["mr_health"] = {
        {"judged", coverage.judged}, {"from", coverage.from}, {"not_judged", coverage.not_judged}};
    return out;
}

}  // namespace rdmadiag::cli::render
