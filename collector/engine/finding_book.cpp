#include "collector/engine/finding_book.hpp"

#include <algorithm>

namespace rdmadiag::engine {

bool FindingBook::raise(Finding finding) {
    auto id = finding.id();
    auto it = active_.find(id);
    if (it != active_.end()) {
        Finding& held = it->second;
        if (held.severity == finding.severity && held.evidence == finding.evidence &&
            held.advice == finding.advice) {
            return false;
        }
        held.severity = finding.severity;
        held.evidence = std::move(finding.evidence);
        held.advice = std::move(finding.advice);
        ++revision_;
        return false;
    }
    finding.cleared.reset();
    active_.emplace(std::move(id), std::move(finding));
    ++raised_total_;
    ++revision_;
    return true;
}

bool FindingBook::clear(const std::string& rule, const FindingSubject& subject, TimePoint when) {
    Finding probe;
    probe.rule = rule;
    probe.subject = subject;
    auto it = active_.find(probe.id());
    if (it == active_.end()) return false;
    it->second.cleared = when;
    // Evidence is built by appending, with room to spare; the history keeps hundreds of findings
    // for good, so each keeps only what its text needs.
    it->second.evidence.shrink_to_fit();
    history_.push_front(std::move(it->second));
    active_.erase(it);
    ++revision_;
    while (history_.size() > history_limit_) history_.pop_back();
    return true;
}

void FindingBook::clear_rule_except(const std::string& rule,
                                    const std::vector<FindingSubject>& keep, TimePoint when) {
    std::vector<FindingSubject> gone;
    for (const auto& [id, f] : active_) {
        if (f.rule != rule) continue;
        if (std::find(keep.begin(), keep.end(), f.subject) == keep.end()) gone.push_back(f.subject);
    }
    for (const auto& s : gone) clear(rule, s, when);
}

const Finding* FindingBook::find(const std::string& rule, const FindingSubject& subject) const {
    Finding probe;
    probe.rule = rule;
    probe.subject = subject;
    auto it = active_.find(probe.id());
    return it == active_.end() ? nullptr : &it->second;
}

std::vector<Finding> FindingBook::active() const {
    std::vector<Finding> out;
    out.reserve(active_.size());
    for (const auto& [id, f] : active_) out.push_back(f);
    std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
        if (a.severity != b.severity) return a.severity > b.severity;
        return a.since < b.since;
    });
    return out;
}

}  // namespace rdmadiag::engine
