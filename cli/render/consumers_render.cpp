#include "cli/render/consumers_render.hpp"

#include "cli/render/format.hpp"
#include "cli/render/pkeys_render.hpp"
#include "cli/render/table.hpp"
#include "collector/json/consumer_json.hpp"
#include "collector/json/model_json.hpp"
#include "collector/model/pkey.hpp"

namespace rdmadiag::cli::render {

namespace {

bool device_matches(const PortRef& filter, const std::string& device) {
    return filter.device.empty() || filter.device == device;
}

bool consumer_matches(const PortRef& filter, const std::string& device, const Consumer& c) {
    return device_matches(filter, device) && (filter.port == 0 || filter.port == c.port);
}

std::string owner_cell(const ConsumerOwner& o) {
    if (o.pid) return (o.name.empty() ? "?" : o.name) + " (" + std::to_string(*o.pid) + ")";
    return o.name.empty() ? "-" : o.name;
}

std::string index_cell(const Consumer& c) {
    if (!c.pkey_index) return c.kind == ConsumerKind::ipoib && c.pkey ? "none" : "-";
    std::string s = std::to_string(*c.pkey_index);
    if (c.index_source == IndexSource::inferred) s += "?";
    return s;
}

std::string state_cell(const Consumer& c) {
    std::string s = c.state.empty() ? "-" : c.state;
    if (c.carrier) s += *c.carrier ? ", carrier" : ", no carrier";
    if (!c.mode.empty()) s += ", " + c.mode;
    return s;
}

std::string name_cell(const Consumer& c) {
    if (c.kind == ConsumerKind::qp)
        return std::to_string(c.count) + " QP" + (c.count == 1 ? "" : "s");
    if (!c.parent.empty() && c.kind == ConsumerKind::ipoib)
        return c.name + " (child of " + c.parent + ")";
    if (!c.parent.empty()) return c.name + " via " + c.parent;
    return c.name;
}

// "ib0.8001 (IPoIB, index 3 inferred)".
std::string short_text(const Consumer& c) {
    std::string s =
        c.kind == ConsumerKind::qp ? std::to_string(c.count) + " " + c.qp_type + " QPs" : c.name;
    std::string detail(to_string(c.kind));
    if (c.owner.pid || (!c.owner.name.empty() && c.kind != ConsumerKind::srp))
        detail += ", " + owner_cell(c.owner);
    if (c.pkey_index)
        detail += ", index " + std::to_string(*c.pkey_index) +
                  (c.index_source == IndexSource::inferred ? " inferred" : "");
    if (c.carrier == false) detail += ", no carrier";
    return s + " (" + detail + ")";
}

std::string list(const std::vector<Consumer>& consumers) {
    std::string out;
    for (const auto& c : consumers) out += (out.empty() ? "" : ", ") + short_text(c);
    return out;
}

}  // namespace

std::string consumers_of_pkey(const Snapshot& snap, const PortRef& port, uint16_t pkey) {
    return snap.consumers ? list(consumers_using_pkey(*snap.consumers, port, pkey)) : "";
}

std::string consumers_of_gid(const Snapshot& snap, const PortRef& port, const Gid& gid) {
    return snap.consumers ? list(consumers_using_gid(*snap.consumers, port, gid)) : "";
}

std::string render_consumers_text(const Snapshot& snap, const PortRef& filter) {
    if (!snap.consumers) {
        return "No consumers listed: no consumers source reported (rdmadiag status says why).\n";
    }
    std::string out;
    size_t shown = 0;
    for (size_t i = 0; i < snap.consumers->devices.size(); ++i) {
        const auto& inv = snap.consumers->devices[i];
        if (!device_matches(filter, inv.device)) continue;
        if (shown++ > 0) out += "\n";
        out += inv.device + ": read " + format_time(snap.consumers->read[i]) +
               (inv.complete ? "" : ", incomplete") + "\n";
        for (const auto& note : inv.notes) out += "  note: " + note + "\n";
        Table t({{"PORT", Align::right},
                 {"KIND"},
                 {"NAME"},
                 {"OWNER"},
                 {"PKEY"},
                 {"INDEX", Align::right},
                 {"QP"},
                 {"STATE"},
                 {"GID / ADDRESS"}});
        for (const auto& c : inv.consumers) {
            if (!consumer_matches(filter, inv.device, c)) continue;
            std::string where = c.gid ? c.gid->to_string() : "";
            if (!c.address.empty() && c.kind != ConsumerKind::srp)
                where += (where.empty() ? "" : " ") + std::string("(") + c.address + ")";
            else if (!c.address.empty())
                where += (where.empty() ? "" : " ") + std::string("to ") + c.address;
            t.add_row({c.port ? std::to_string(c.port) : "-", std::string(to_string(c.kind)),
                       name_cell(c), owner_cell(c.owner), c.pkey ? format_pkey(*c.pkey) : "-",
                       index_cell(c), c.qp_type.empty() ? "-" : c.qp_type, state_cell(c),
                       where.empty() ? "-" : where});
        }
        out += t.empty() ? "  no consumers\n" : t.render();
    }
    if (shown == 0) return "No device matches.\n";
    out +=
        "\nINDEX: ? marks an index inferred from the port's table (the kernel does not export "
        "it).\n";
    for (const auto& f : snap.findings) {
        if (f.rule.rfind("consumer.", 0) != 0 || !device_matches(filter, f.subject.device))
            continue;
        if (filter.port != 0 && f.subject.port && *f.subject.port != filter.port) continue;
        out += "\n" + std::string(to_string(f.severity)) + " " + f.rule + " " +
               f.subject.to_string() + "\n  " + f.evidence + "\n";
    }
    return out;
}

codec::Json render_consumers_json(const Snapshot& snap, const PortRef& filter) {
    return codec::consumers_to_json(
        snap.consumers.get(), snap.findings,
        filter.device.empty() ? std::nullopt : std::optional<std::string>(filter.device),
        filter.port == 0 ? std::nullopt : std::optional<uint32_t>(filter.port));
}

}  // namespace rdmadiag::cli::render
