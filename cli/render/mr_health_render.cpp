#include "cli/render/mr_health_render.hpp"

#include <map>

namespace rdmadiag::cli::render {

namespace {

bool sees_completions(const std::string& source) {
    return source == "tracefs" || source == "probe" || source == "sim" || source == "replay";
}

}  // namespace

MrHealthCoverage mr_health_coverage(const Snapshot& snap) {
    MrHealthCoverage c;
    bool tracefs_seen = false;
    bool probe_seen = false;
    for (const auto& s : snap.sources) {
        tracefs_seen = tracefs_seen || s.name == "tracefs";
        probe_seen = probe_seen || s.name == "probe";
        if (s.name == "netlink") c.netlink_up = s.up;
        if (!sees_completions(s.name) && s.name != "netlink") continue;
        if (s.up) {
            c.from.push_back(s.name);
            c.judged = c.judged || sees_completions(s.name);
        } else if (s.name != "netlink") {
            c.not_judged.push_back(s.name + ": " + (s.reason.empty() ? "down" : s.reason));
        }
    }
    if (!c.judged) {
        if (!tracefs_seen) c.not_judged.push_back("tracefs: not used");
        if (!probe_seen) {
            c.not_judged.push_back("probe: not used by one-shot commands (rdmadiag serve listens)");
        }
    }
    return c;
}

std::string render_mr_health_line(const Snapshot& snap) {
    const auto c = mr_health_coverage(snap);
    std::map<MrState, size_t> by_state;
    for (const auto& m : snap.mrs.mrs) ++by_state[m.state];
    std::string counts;
    size_t total = 0;
    for (const auto& [state, n] : by_state) {
        counts +=
            (counts.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(to_string(state));
        total += n;
    }
    std::string from;
    for (const auto& f : c.from) from += (from.empty() ? "" : ", ") + f;
    std::string out = "MR health: ";
    if (c.judged) {
        out += total == 0 ? std::string("no MRs seen")
                          : std::to_string(total) + " MR" + (total == 1 ? "" : "s") + ": " + counts;
        return out + " (from " + from + ")\n";
    }
    // One reason a line: the reasons carry paths, and status lines stay short.
    out += "not judged, no source sees MR completions:\n";
    for (const auto& why : c.not_judged) out += "  " + why + "\n";
    if (c.netlink_up) out += "  netlink: up, but it lists MRs without their state\n";
    return out;
}

}  // namespace rdmadiag::cli::render
