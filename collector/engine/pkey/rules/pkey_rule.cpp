#include "collector/engine/pkey/rules/pkey_rule.hpp"

#include <algorithm>

namespace rdmadiag::engine::pkey::rules {

FindingSubject PKeyRuleContext::port_subject() const {
    FindingSubject s;
    s.device = port.device;
    s.port = port.port;
    return s;
}

Finding PKeyRuleContext::make(std::string_view rule, Severity severity, FindingSubject subject,
                              TimePoint since, std::string evidence, std::string advice) const {
    Finding f;
    f.rule = std::string(rule);
    f.severity = severity;
    f.subject = std::move(subject);
    f.since = since;
    f.evidence = std::move(evidence);
    f.advice = std::move(advice);
    return f;
}

namespace {
uint8_t port_rule_bit(std::string_view rule) {
    static constexpr std::string_view kPortRules[] = {kRuleCacheStale, kRuleViewDivergence,
                                                      kRuleViolationsAfterChange, kRuleFlapping,
                                                      kRuleCounterSaturated};
    for (size_t i = 0; i < std::size(kPortRules); ++i) {
        if (kPortRules[i] == rule) return static_cast<uint8_t>(1u << i);
    }
    return 0;
}
}  // namespace

void PKeyRuleContext::raise_port(Finding finding) const {
    track.port_findings |= port_rule_bit(finding.rule);
    ctx.findings().raise(std::move(finding));
}

void PKeyRuleContext::clear_port(std::string_view rule) const {
    const uint8_t bit = port_rule_bit(rule);
    if ((track.port_findings & bit) == 0) return;
    track.port_findings &= static_cast<uint8_t>(~bit);
    ctx.findings().clear(std::string(rule), port_subject(), now());
}

bool PKeyRuleContext::port_finding_active(std::string_view rule) const {
    return (track.port_findings & port_rule_bit(rule)) != 0;
}

void PKeyRuleContext::hold(Finding finding) const {
    const TimePoint expires = now() + settings.change_hold;
    auto it = std::find_if(track.held.begin(), track.held.end(), [&](const HeldFinding& h) {
        return h.rule == finding.rule && h.subject == finding.subject;
    });
    if (it == track.held.end()) {
        track.held.push_back(HeldFinding{finding.rule, finding.subject, expires});
    } else {
        it->expires = expires;
    }
    ctx.findings().raise(std::move(finding));
}

TimePoint expire_held_findings(PKeyRuleContext& rc) {
    TimePoint next = TimePoint::max();
    auto& held = rc.track.held;
    for (auto it = held.begin(); it != held.end();) {
        if (rc.now() >= it->expires) {
            rc.ctx.findings().clear(it->rule, it->subject, rc.now());
            it = held.erase(it);
        } else {
            next = std::min(next, it->expires);
            ++it;
        }
    }
    if (held.empty()) held.shrink_to_fit();
    return next;
}

}  // namespace rdmadiag::engine::pkey::rules
