#include "cli/render/findings_render.hpp"

#include "cli/render/format.hpp"
#include "cli/render/table.hpp"
#include "collector/model/node_names.hpp"

namespace rdmadiag::cli::render {

std::string render_findings_summary(const Snapshot& snap, size_t max_lines) {
    size_t crit = 0, warn = 0, info = 0;
    for (const auto& f : snap.findings) {
        if (f.severity == Severity::critical) ++crit;
        if (f.severity == Severity::warning) ++warn;
        if (f.severity == Severity::info) ++info;
    }
    if (snap.findings.empty()) return "Findings: none\n";
    std::string out = "Findings: " + std::to_string(snap.findings.size()) + " (" +
                      std::to_string(crit) + " critical, " + std::to_string(warn) + " warning, " +
                      std::to_string(info) + " info)\n";
    const NodeNames names(snap);
    Table t({{"SEVERITY"}, {"RULE"}, {"SUBJECT"}, {"SINCE"}});
    size_t n = 0;
    for (const auto& f : snap.findings) {
        if (n++ == max_lines) break;
        t.add_row({std::string(to_string(f.severity)), f.rule, names.subject(f.subject),
                   age(f.since, snap.time)});
    }
    out += t.render();
    if (snap.findings.size() > max_lines) {
        out += "... and " + std::to_string(snap.findings.size() - max_lines) +
               " more (rdmadiag check, or --json)\n";
    }
    return out;
}

}  // namespace rdmadiag::cli::render
