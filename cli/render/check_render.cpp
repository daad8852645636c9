#include "cli/render/check_render.hpp"

#include <map>

#include "cli/render/mr_health_render.hpp"

namespace rdmadiag::cli::render {

std::string_view to_string(CheckStatus s) {
    switch (s) {
        case CheckStatus::ok:
            return "OK";
        case CheckStatus::warning:
            return "WARNING";
        case CheckStatus::critical:
            return "CRITICAL";
        case CheckStatus::unknown:
            return "UNKNOWN";
    }
    return "UNKNOWN";
}

namespace {

size_t count_ports(const Snapshot& s) {
    size_t n = 0;
    for (const auto& d : s.devices) {
        for (const auto& p : d.ports) n += p.present ? 1 : 0;
    }
    return n;
}

size_t count_cache(const Snapshot& s, CacheJudgement j) {
    size_t n = 0;
    for (const auto& d : s.devices) {
        for (const auto& p : d.ports) n += p.pkeys.cache == j ? 1 : 0;
    }
    return n;
}

std::string perf(const char* label, size_t value) {
    return std::string(label) + "=" + std::to_string(value) + ";;;0";
}

}  // namespace

CheckResult evaluate_check(const Snapshot& s, const CheckOptions& options) {
    CheckResult r;
    std::map<Severity, size_t> by_severity;
    for (const auto& f : s.findings) ++by_severity[f.severity];
    const size_t critical = by_severity[Severity::critical];
    const size_t warning = by_severity[Severity::warning];
    const size_t info = by_severity[Severity::info];
    const size_t ports = count_ports(s);
    bool any_source_up = false;
    for (const auto& src : s.sources) any_source_up = any_source_up || src.up;

    std::string headline;
    if (ports == 0 && s.findings.empty()) {
        r.status = CheckStatus::unknown;
        headline = any_source_up ? "no RDMA ports seen" : "no source could read anything";
        for (const auto& src : s.sources) {
            // The MR sources read no port: their reasons are not why no port was seen.
            const bool mr_only =
                src.name == "tracefs" || src.name == "netlink" || src.name == "probe";
            if (!src.up && !src.reason.empty() && !mr_only) {
                headline += "; " + src.name + ": " + src.reason;
                break;
            }
        }
    } else {
        if (critical > 0) {
            r.status = CheckStatus::critical;
        } else if (warning > 0 || (!options.info_is_ok && info > 0)) {
            r.status = CheckStatus::warning;
        } else {
            r.status = CheckStatus::ok;
        }
        if (s.findings.empty()) {
            headline = std::to_string(ports) + " port" + (ports == 1 ? "" : "s") + ", no findings";
        } else {
            headline = std::to_string(critical) + " critical, " + std::to_string(warning) +
                       " warning, " + std::to_string(info) + " info";
            // Name the most severe finding: it is what the pager shows.
            const auto& top = s.findings.front();
            headline += ": " + top.rule + " on " + top.subject.to_string();
        }
    }
    // MR health that cannot be judged does not change the status (most hosts run no ULP that
    // uses FRWR), but the headline says so rather than letting OK imply it was looked at.
    const auto mr = mr_health_coverage(s);
    if (!mr.judged) headline += "; MR health not judged";
    size_t stuck = 0;
    size_t unknown = 0;
    for (const auto& m : s.mrs.mrs) {
        stuck += m.state == MrState::stuck ? 1 : 0;
        unknown += m.state == MrState::unknown ? 1 : 0;
    }
    r.summary = "RDMADIAG " + std::string(to_string(r.status)) + " - " + headline + " | " +
                perf("critical", critical) + " " + perf("warning", warning) + " " +
                perf("info", info) + " " + perf("ports", ports) + " " +
                perf("stale_caches", count_cache(s, CacheJudgement::stale)) + " " +
                perf("unjudged_caches", count_cache(s, CacheJudgement::not_watched)) + " " +
                perf("pkey_changes", s.pkey_changes.size()) + " " + perf("mrs_stuck", stuck) + " " +
                perf("mrs_unknown", unknown);
    for (const auto& f : s.findings) {
        r.details += std::string(to_string(f.severity)) + " " + f.rule + " " +
                     f.subject.to_string() + " since " + format_time(f.since) + ": " + f.evidence +
                     "\n";
    }
    return r;
}

std::string render_check_text(const CheckResult& r) {
    return r.summary + "\n" + r.details;
}

}  // namespace rdmadiag::cli::render
