#include "cli/render/partitions_render.hpp"

#include "cli/render/table.hpp"
#include "collector/json/json_fields.hpp"

namespace rdmadiag::cli::render {

using partitions::kHoldsFull;
using partitions::kHoldsLimited;
using partitions::kMemberViews;
using partitions::MemberView;
using partitions::Partition;
using partitions::PartitionMember;
using partitions::PartitionModel;

std::string_view to_string(MemberDifference d) {
    switch (d) {
        case MemberDifference::missing:
            return "missing";
        case MemberDifference::unexpected:
            return "unexpected";
        case MemberDifference::mismatch:
            return "mismatch";
        case MemberDifference::none:
            break;
    }
    return "none";
}

MemberView held_view(const partitions::EndPort& port) {
    return port.has(MemberView::sma) ? MemberView::sma : MemberView::device;
}

MemberDifference difference(const PartitionModel& model, const Partition& partition,
                            const PartitionMember& member, bool have_intent) {
    if (!have_intent || !partition.intended) return MemberDifference::none;
    const auto& port = model.ports[member.port];
    const MemberView view = held_view(port);
    if (!port.has(view)) return MemberDifference::none;
    const uint8_t intended = member.in(MemberView::intent);
    const uint8_t held = member.in(view);
    if (intended == held) return MemberDifference::none;
    if (held == 0) return MemberDifference::missing;
    if (intended == 0) return MemberDifference::unexpected;
    return MemberDifference::mismatch;
}

namespace {

constexpr MemberView kViews[kMemberViews] = {MemberView::intent, MemberView::sm, MemberView::sma,
                                             MemberView::device, MemberView::cache};

std::string_view holding_text(uint8_t holds) {
    if (holds == (kHoldsFull | kHoldsLimited)) return "both";
    if (holds == kHoldsFull) return "full";
    if (holds == kHoldsLimited) return "limited";
    return "";
}

std::string port_text(const partitions::EndPort& p) {
    if (p.node_name.empty()) return p.port.to_string();
    return p.node_name + ":" + std::to_string(p.port.port);
}

// Full and limited members of one view ("3/1"), a member holding both counted in each.
std::string counts_text(const Partition& p, MemberView v) {
    const auto& c = p.counts[static_cast<size_t>(v)];
    if (c[0] + c[1] + c[2] == 0) return "-";
    return std::to_string(c[1] + c[2]) + "/" + std::to_string(c[0] + c[2]);
}

size_t differences(const PartitionModel& model, const Partition& p, bool have_intent) {
    size_t n = 0;
    for (const auto& m : p.members)
        n += difference(model, p, m, have_intent) != MemberDifference::none;
    return n;
}

std::string summary_text(const PartitionModel& model, bool have_intent) {
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
        for (auto v : kViews) row.push_back(counts_text(p, v));
        row.push_back(have_intent && p.intended ? std::to_string(differences(model, p, have_intent))
                                                : "-");
        t.add_row(std::move(row));
    }
    if (t.empty()) return "no partitions: no P_Key table was read\n";
    return t.render();
}

std::string members_text(const PartitionModel& model, const Partition& p, bool have_intent) {
    std::string out = "Partition " + format_pkey(p.pkey);
    if (!p.name.empty()) out += " " + p.name;
    out += p.intended ? " (in partitions.conf)" : have_intent ? " (not in partitions.conf)" : "";
    out += ": " + std::to_string(p.members.size()) + " member ports\n";
    Table t({{"PORT"}, {"GUID"}, {"INTENT"}, {"SM"}, {"SMA"}, {"DEVICE"}, {"CACHE"}, {"DIFFERS"}});
    for (const auto& m : p.members) {
        const auto& port = model.ports[m.port];
        const auto diff = difference(model, p, m, have_intent);
        const MemberView held = held_view(port);
        std::vector<std::string> row{port_text(port),
                                     port.guid ? codec::guid_text(*port.guid) : "-"};
        for (auto v : kViews) {
            std::string cell(holding_text(m.in(v)));
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

std::string render_partitions_text(const PartitionModel& model, bool have_intent,
                                   const PartitionsRenderOptions& options) {
    std::string out;
    if (options.pkey) {
        const Partition* p = model.find(pkey_base(*options.pkey));
        if (!p) return "no partition " + format_pkey(pkey_base(*options.pkey)) + "\n";
        out = members_text(model, *p, have_intent);
    } else {
        out = summary_text(model, have_intent);
        out += "F/L: full and limited member ports in each view";
        out += have_intent ? "; DIFFER: member ports whose tables do not hold what partitions.conf "
                             "says (rdmadiag partitions PKEY lists them)\n"
                           : " (--intent FILE compares them with partitions.conf)\n";
    }
    for (const auto& u : model.unresolved) out += "partitions.conf " + u + "\n";
    return out;
}

codec::Json render_partitions_json(const PartitionModel& model, bool have_intent,
                                   const PartitionsRenderOptions& options) {
    codec::Json parts = codec::Json::array();
    for (const auto& p : model.partitions) {
        if (options.pkey && p.pkey != pkey_base(*options.pkey)) continue;
        codec::Json j;
        j["pkey"] = format_pkey(p.pkey);
        j["name"] = p.name;
        j["intended"] = p.intended;
        codec::Json counts = codec::Json::object();
        for (auto v : kViews) {
            const auto& c = p.counts[static_cast<size_t>(v)];
            counts[std::string(partitions::to_string(v))] = {
                {"full", c[1]}, {"limited", c[0]}, {"both", c[2]}};
        }
        j["members_per_view"] = std::move(counts);
        if (have_intent && p.intended) j["differences"] = differences(model, p, have_intent);
        if (options.pkey) {
            codec::Json members = codec::Json::array();
            for (const auto& m : p.members) {
                const auto& port = model.ports[m.port];
                codec::Json mj;
                mj["port"] = port.port.to_string();
                mj["node"] = port.node_name;
                mj["guid"] = port.guid ? codec::Json(codec::guid_text(*port.guid)) : codec::Json();
                codec::Json views = codec::Json::object();
                for (auto v : kViews) {
                    if (m.in(v) != 0)
                        views[std::string(partitions::to_string(v))] = holding_text(m.in(v));
                }
                mj["views"] = std::move(views);
                mj["held_view"] = partitions::to_string(held_view(port));
                mj["difference"] = to_string(difference(model, p, m, have_intent));
                members.push_back(std::move(mj));
            }
            j["members"] = std::move(members);
        }
        parts.push_back(std::move(j));
    }
    return codec::Json{{"partitions", std::move(parts)},
                       {"intent", have_intent},
                       {"unresolved", model.unresolved}};
}

}  // namespace rdmadiag::cli::render
