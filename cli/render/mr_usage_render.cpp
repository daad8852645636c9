#include "cli/render/mr_usage_render.hpp"

#include "cli/render/format.hpp"
#include "cli/render/table.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"

namespace rdmadiag::cli::render {

namespace {

bool is_usage_finding(const Finding& f) {
    return f.rule == "mr.leak_suspected" || f.rule == "mr.exhaustion_near" ||
           f.rule == "mr.owner_gone";
}

std::string signed_text(int64_t v) {
    return (v > 0 ? "+" : "") + std::to_string(v);
}

std::string flags(const MrProcessUsage& p) {
    std::string s;
    if (p.leak_suspected) s = "leak suspected";
    if (p.owner_gone) s += std::string(s.empty() ? "" : ", ") + "owner gone";
    return s.empty() ? "-" : s;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
    return s.empty() ? "-" : s;
}

}  // namespace

std::string render_mr_usage_text(const Snapshot& snap, const std::string& origin) {
    const MrUsage& u = snap.mrs.usage;
    std::string out = "MRs by process (" + origin + ", " + format_time(snap.time) + ")\n\n";
    if (u.processes.empty() && u.devices.empty()) {
        return out +
               "No MR listings (RDMA netlink is read only on this machine's /sys, and "
               "needs a kernel with RDMA_NLDEV_CMD_RES_MR_GET).\n";
    }
    Table t({{"PID", Align::right},
             {"PROCESS"},
             {"MRS", Align::right},
             {"REGISTERED", Align::right},
             {"GROWTH", Align::right},
             {"OVER", Align::right},
             {"DEVICES"},
             {"FLAGS"}});
    for (const auto& p : u.processes) {
        const std::string name = p.owner_gone ? "(exited)"
                                 : p.pid      ? (p.comm.empty() ? "-" : p.comm)
                                              : "[" + p.comm + "]";
        t.add_row({or_dash(p.pid), name, std::to_string(p.mrs), bytes_text(p.bytes),
                   signed_text(p.mrs_growth),
                   p.growth_over > Duration::zero() ? format_duration(p.growth_over) : "-",
                   joined(p.devices), flags(p)});
    }
    if (u.other_processes > 0) {
        t.add_row({"-", "other (" + std::to_string(u.other_processes) + ")",
                   std::to_string(u.other_mrs), bytes_text(u.other_bytes), "-", "-", "-", "-"});
    }
    out += t.render();
    if (!u.devices.empty()) {
        out += "\n";
        Table d({{"DEVICE"},
                 {"MRS", Align::right},
                 {"REGISTERED", Align::right},
                 {"MAX MR", Align::right},
                 {"USED", Align::right},
                 {"OWNER GONE", Align::right}});
        for (const auto& dev : u.devices) {
            std::string used = "-";
            if (dev.max_mr && *dev.max_mr > 0) {
                char buf[16];
                std::snprintf(
                    buf, sizeof buf, "%.1f%%",
                    100.0 * static_cast<double>(dev.mrs) / static_cast<double>(*dev.max_mr));
                used = buf;
                if (dev.exhaustion_near) used += " (near)";
            }
            d.add_row({dev.device, std::to_string(dev.mrs), bytes_text(dev.bytes),
                       or_dash(dev.max_mr), used, std::to_string(dev.owner_gone_mrs)});
        }
        out += d.render();
    }
    size_t findings = 0;
    for (const auto& f : snap.findings) findings += is_usage_finding(f);
    out += "\nLeak and exhaustion findings: " +
           (findings ? std::to_string(findings) : std::string("none")) + "\n";
    return out;
}

codec::Json render_mr_usage_json(const Snapshot& snap, const std::string& origin) {
    codec::Json j = snap.mrs.usage;
    j["origin"] = origin;
    j["time"] = format_time(snap.time);
    codec::Json findings = codec::Json::array();
    for (const auto& f : snap.findings) {
        if (is_usage_finding(f)) findings.push_back(f);
    }
    j["findings"] = findings;
    return j;
}

}  // namespace rdmadiag::cli::render
