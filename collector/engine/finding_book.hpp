#pragma once
// The set of active findings and the history of cleared ones. Rules call raise() every time they
// see their condition and clear() when it ends; raising an active finding keeps its `since` and
// only refreshes evidence, so rules can be written as "state the truth every tick".

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "collector/model/finding.hpp"

namespace rdmadiag::engine {

class FindingBook {
public:
    explicit FindingBook(size_t history_limit = 500) : history_limit_(history_limit) {}

    // Returns true when the finding is new (was not active).
    bool raise(Finding finding);
    // Clears the active finding with this rule and subject, if any, at `when`.
    bool clear(const std::string& rule, const FindingSubject& subject, TimePoint when);
    // Clears every active finding of `rule` whose subject is not in `keep`.
    void clear_rule_except(const std::string& rule, const std::vector<FindingSubject>& keep,
                           TimePoint when);

    const Finding* find(const std::string& rule, const FindingSubject& subject) const;
    std::vector<Finding> active() const;  // most severe first, then oldest first
    const std::deque<Finding>& history() const { return history_; }  // newest first
    uint64_t raised_total() const { return raised_total_; }
    // Rises whenever a finding is raised, cleared or its text changes: a rule stating an
    // unchanged truth again leaves it where it was.
    uint64_t revision() const { return revision_; }

private:
    std::map<std::string, Finding> active_;  // by Finding::id()
    std::deque<Finding> history_;
    size_t history_limit_;
    uint64_t raised_total_ = 0;
    uint64_t revision_ = 0;
};

}  // namespace rdmadiag::engine
