#include "cli/render/mrs_render.hpp"

#include "cli/render/format.hpp"
#include "cli/render/table.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"

namespace rdmadiag::cli::render {

namespace {

bool selected(const MrRecord& r, const MrsFilter& f) {
    return !f.state || r.state == *f.state;
}

std::string owner_text(const MrOwner& o) {
    std::string s = o.name.empty() ? "-" : o.name;
    if (o.pid) s += "[" + std::to_string(*o.pid) + "]";
    return s;
}

std::string in_state(TimePoint since, TimePoint now) {
    return now >= since ? format_duration(now - since) : "-";
}

std::string hex_or_dash(const std::optional<uint32_t>& k) {
    if (!k) return "-";
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", *k);
    return buf;
}

bool is_mr_finding(const Finding& f) {
    return f.rule.rfind("mr.", 0) == 0;
}

std::string kernel_text(const MrKernelBehaviour& k) {
    std::string s;
    switch (k.flushed_mrs) {
        case FlushedMrHandling::destroyed:
            s = "flushed xprtrdma MRs are destroyed at teardown, awaiting_teardown until then";
            break;
        case FlushedMrHandling::recovered:
            s = "flushed xprtrdma MRs are recovered at once (unknown or stuck ones are faults)";
            break;
        case FlushedMrHandling::not_known:
            s = "what it does with flushed xprtrdma MRs is not known";
            break;
    }
    return s + " (from: " + k.basis + ")";
}

}  // namespace

std::string render_mrs_text(const Snapshot& snap, const std::string& origin,
                            const MrsFilter& filter) {
    std::string out = "MRs (" + origin + ", " + format_time(snap.time) + ")\n\n";
    Table t({{"DEVICE"},
             {"MR", Align::right},
             {"KEY"},
             {"STATE"},
             {"FOR", Align::right},
             {"OWNER"},
             {"LAST COMPLETION"},
             {"SOURCE"}});
    std::vector<const MrRecord*> advised;
    for (const auto& r : snap.mrs.mrs) {
        if (!selected(r, filter)) continue;
        std::string last = r.last_op ? std::string(to_string(*r.last_op)) : "-";
        if (r.last_status) last += " " + std::string(to_string(*r.last_status));
        t.add_row({r.device.empty() ? "-" : r.device, std::to_string(r.mr), hex_or_dash(r.key),
                   std::string(to_string(r.state)), in_state(r.state_since, snap.time),
                   owner_text(r.owner), last, r.source.empty() ? "-" : r.source});
        if (!r.advice.empty()) advised.push_back(&r);
    }
    if (t.empty()) {
        out += filter.state ? "No MRs in state " + std::string(to_string(*filter.state)) + ".\n"
                            : "No MRs seen (no MR events from tracefs, the probe or netlink).\n";
    } else {
        out += t.render();
    }
    if (!advised.empty()) {
        out += "\nAdvice:\n";
        for (const auto* r : advised) {
            out += "  " + (r->device.empty() ? std::string("-") : r->device) + " mr " +
                   std::to_string(r->mr) + " (" + std::string(to_string(r->state)) +
                   "): " + r->advice + "\n";
        }
    }
    if (!snap.mrs.kernel.basis.empty()) {
        out += "\nKernel: " + kernel_text(snap.mrs.kernel) + "\n";
    }
    if (!snap.mrs.devices.empty()) {
        out += "\n";
        Table d({{"DEVICE"},
                 {"VALID", Align::right},
                 {"INVALID", Align::right},
                 {"UNKNOWN", Align::right},
                 {"TEARDOWN", Align::right},
                 {"STUCK", Align::right},
                 {"DEREG", Align::right},
                 {"BIND ERRORS", Align::right},
                 {"RECOVERIES", Align::right}});
        for (const auto& dev : snap.mrs.devices) {
            auto n = [&](MrState s) {
                auto it = dev.by_state.find(s);
                return std::to_string(it == dev.by_state.end() ? 0 : it->second);
            };
            d.add_row({dev.device.empty() ? "-" : dev.device, n(MrState::valid),
                       n(MrState::invalid), n(MrState::unknown), n(MrState::awaiting_teardown),
                       n(MrState::stuck), n(MrState::deregistered), std::to_string(dev.bind_errors),
                       std::to_string(dev.recoveries)});
        }
        out += d.render();
    }
    size_t findings = 0;
    for (const auto& f : snap.findings) findings += is_mr_finding(f);
    out += "\nMR findings: " + (findings ? std::to_string(findings) : std::string("none")) + "\n";
    return out;
}

codec::Json render_mrs_json(const Snapshot& snap, const std::string& origin,
                            const MrsFilter& filter) {
    codec::Json j = codec::Json::object();
    j["origin"] = origin;
    j["time"] = format_time(snap.time);
    codec::Json mrs = codec::Json::array();
    for (const auto& r : snap.mrs.mrs) {
        if (selected(r, filter)) mrs.push_back(r);
    }
    j["mrs"] = mrs;
    j["devices"] = snap.mrs.devices;
    j["recoveries"] = snap.mrs.recoveries;
    j["kernel"] = snap.mrs.kernel;
    codec::Json findings = codec::Json::array();
    for (const auto& f : snap.findings) {
        if (is_mr_finding(f)) findings.push_back(f);
    }
    j["findings"] = findings;
    return j;
}

}  // namespace rdmadiag::cli::render
