#include "cli/render/partitions_render.hpp"

#include "cli/render/table.hpp"
#include "collector/json/json_fields.hpp"

namespace rdmadiag::cli::render {

namespace {

std::string port_text(const EndPort& p) {
    if (p.node_name.empty()) return p.port.to_string();
    return p.node_name + ":" + std::to_string(p.port.port);
}

// Full and limited members of one view ("3/1"), a member holding both counted in each.
std::string counts_text(const Partition& p, MemberView v) {
    const auto& c = p.counts[static_cast<size_t>(v)];
    if (c[0] + c[1] + c[2] == 0) return "-";
    return std::to_string(c[1] + c[2]) + "/" + std::to_string(c[0] + c[2]);
}

std::string summary_text(const PartitionModel& model) {
    Table t({{"P_KEY"},
             {"NAME"},
             {"INTENT F/L", Align::right},
             {"SM F/L", Align::right},
             {"SMA F/L", Align::right},
             {"DEVICE F/L", Align::right},
             {"CACHE F/L", Align::right},
             {"DIFFER", Align::right}});
    for (const auto& p : model.partitions) {
        std::vector<std::string> row{format_pkey(p.pkey), p.name.empty() ? "-" : p.name};
        for (auto v : kAllMemberViews) row.push_back(counts_text(p, v));
        row.push_back(model.judged(p) ? std::to_string(differences(model, p)) : "-");
        t.add_row(std::move(row));
    }
    if (t.empty()) return "no partitions: no P_Key table was read\n";
    return t.render();
}

std::string members_text(const PartitionModel& model, const Partition& p) {
    std::string out = "Partition " + format_pkey(p.pkey);
    if (!p.name.empty()) out += " " + p.name;
    out += p.intended ? " (in partitions.conf)" : model.intent ? " (not in partitions.conf)" : "";
    out += ": " + std::to_string(p.members.size()) + " member ports\n";
    Table t({{"PORT"}, {"GUID"}, {"INTENT"}, {"SM"}, {"SMA"}, {"DEVICE"}, {"CACHE"}, {"DIFFERS"}});
    for (const auto& m : p.members) {
        const auto& port = model.ports[m.port];
        const auto diff = difference(model, p, m);
        const MemberView held = held_view(port);
        std::vector<std::string> row{port_text(port),
                                     port.guid ? codec::guid_text(*port.guid) : "-"};
        for (auto v : kAllMemberViews) {
            std::string cell(holding_name(m.in(v)));
            if (cell.empty()) cell = "-";
            if (diff != MemberDifference::none && (v == held || v == MemberView::intent))
                cell += "*";
            row.push_back(std::move(cell));
        }
        row.emplace_back(diff == MemberDifference::none ? "" : to_string(diff));
        t.add_row(std::move(row));
    }
    if (!t.empty()) out += t.render();
    return out;
}

}  // namespace

std::string render_partitions_text(const PartitionModel& model,
                                   const PartitionsRenderOptions& options) {
    std::string out;
    if (options.pkey) {
        const Partition* p = model.find(pkey_base(*options.pkey));
        if (!p) return "no partition " + format_pkey(pkey_base(*options.pkey)) + "\n";
        out = members_text(model, *p);
    } else {
        out = summary_text(model);
        out += "F/L: full and limited member ports in each view";
        out += model.intent
                   ? "; DIFFER: member ports whose tables do not hold what partitions.conf "
                     "says (rdmadiag partitions PKEY lists them)\n"
                   : " (--intent FILE compares them with partitions.conf)\n";
    }
    for (const auto& u : model.unresolved) out += "partitions.conf " + u + "\n";
    return out;
}

}  // namespace rdmadiag::cli::render
