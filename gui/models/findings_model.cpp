#include "gui/models/findings_model.hpp"

#include <algorithm>

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

void sort_findings_for_display(std::vector<Finding>& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        const int ra = finding_rank(a);
        const int rb = finding_rank(b);
        if (ra != rb) return ra < rb;
        if (a.since != b.since) return a.since < b.since;
        return a.id() < b.id();
    });
}

void FindingsModel::set_findings(std::vector<Finding> findings, TimePoint now) {
    sort_findings_for_display(findings);
    now_ = now;
    replace_rows(rows_, std::move(findings), [](const Finding& f) { return f.id(); });
}

const Finding* FindingsModel::finding_at(int row) const {
    if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return nullptr;
    return &rows_[static_cast<size_t>(row)];
}

QString FindingsModel::subject_text(const Finding& f) const {
    return names_ ? names_->subject(f.subject) : qs(f.subject.to_string());
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
    const Finding* f = index.isValid() ? finding_at(index.row()) : nullptr;
    if (!f) return {};
    const int col = index.column();
    switch (role) {
        case Qt::DisplayRole:
            switch (col) {
                case SeverityColumn:
                    return qs(to_string(f->severity));
                case RuleColumn:
                    return qs(f->rule);
                case SubjectColumn:
                    return subject_text(*f);
                case SinceColumn:
                    return clock_text(f->since) + QStringLiteral(" (") + age_text(f->since, now_) +
                           QStringLiteral(")");
                case AdviceColumn:
                    return qs(f->advice);
            }
            return {};
        case SortRole:
            switch (col) {
                case SeverityColumn:
                    return finding_rank(*f);
                case SinceColumn:
                    return static_cast<qlonglong>(f->since.time_since_epoch().count());
                default:
                    return data(index, Qt::DisplayRole);
            }
        case Qt::ToolTipRole:
            return QStringLiteral("%1 since %2\nSubject: %3\n\nEvidence: %4\n\nAdvice: %5")
                .arg(qs(f->rule), full_time_text(f->since), qs(f->subject.to_string()),
                     qs(f->evidence), qs(f->advice));
        case Qt::BackgroundRole:
            return severity_background(f->severity);
        case Qt::ForegroundRole:
            if (col == SeverityColumn) return severity_color(f->severity);
            return {};
        case Qt::DecorationRole:
            if (col == SeverityColumn) return severity_color(f->severity);
            return {};
        case RuleRole:
            return qs(f->rule);
        case FindingIdRole:
            return qs(f->id());
        case EvidenceRole:
            return qs(f->evidence);
        default:
            return {};
    }
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case SeverityColumn:
            return QStringLiteral("Severity");
        case RuleColumn:
            return QStringLiteral("Rule");
        case SubjectColumn:
            return QStringLiteral("Subject");
        case SinceColumn:
            return QStringLiteral("Since");
        case AdviceColumn:
            return QStringLiteral("Advice");
    }
    return {};
}

}  // namespace rdmadiag::gui::models
