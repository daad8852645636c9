#include "gui/models/display_text.hpp"

#include <QDateTime>

#include "collector/model/pkey.hpp"

namespace rdmadiag::gui::models {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

namespace {
QDateTime to_qdatetime(TimePoint t) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch());
    return QDateTime::fromMSecsSinceEpoch(ms.count(), Qt::UTC);
}
}  // namespace

QString clock_text(TimePoint t) {
    if (t == TimePoint{}) return QStringLiteral("-");
    return to_qdatetime(t).toString(QStringLiteral("HH:mm:ss"));
}

QString full_time_text(TimePoint t) {
    if (t == TimePoint{}) return QStringLiteral("never");
    return qs(format_time(t));
}

QString age_text(TimePoint then, TimePoint now) {
    if (then == TimePoint{}) return QStringLiteral("-");
    if (now < then) return QStringLiteral("0s");
    const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now - then).count();
    if (secs < 60) return QStringLiteral("%1s").arg(secs);
    if (secs < 3600) {
        return QStringLiteral("%1m%2s").arg(secs / 60).arg(secs % 60, 2, 10, QLatin1Char('0'));
    }
    if (secs < 86400) {
        return QStringLiteral("%1h%2m")
            .arg(secs / 3600)
            .arg((secs % 3600) / 60, 2, 10, QLatin1Char('0'));
    }
    return QStringLiteral("%1d%2h")
        .arg(secs / 86400)
        .arg((secs % 86400) / 3600, 2, 10, QLatin1Char('0'));
}

QString pkey_text(uint16_t raw) {
    if (pkey_is_empty(raw)) return {};
    return qs(format_pkey(raw)) +
           (pkey_is_full(raw) ? QStringLiteral(" full") : QStringLiteral(" limited"));
}

bool is_priority_rule(std::string_view rule) {
    return rule == "pkey.cache_stale" || rule == "mr.needs_dereg";
}

int finding_rank(const Finding& f) {
    const int severity_rank = 2 - static_cast<int>(f.severity);  // critical 0, info 2
    return (is_priority_rule(f.rule) ? 0 : 10) + severity_rank;
}

QColor severity_color(Severity s) {
    switch (s) {
        case Severity::critical:
            return QColor(0xc6, 0x28, 0x28);
        case Severity::warning:
            return QColor(0xef, 0x8f, 0x00);
        case Severity::info:
            return QColor(0x1e, 0x88, 0xe5);
    }
    return QColor(0x75, 0x75, 0x75);
}

QColor severity_background(Severity s) {
    switch (s) {
        case Severity::critical:
            return QColor(0xfd, 0xe0, 0xe0);
        case Severity::warning:
            return QColor(0xff, 0xf1, 0xd6);
        case Severity::info:
            return QColor(0xe3, 0xf0, 0xfd);
    }
    return {};
}

QColor differs_background() {
    return QColor(0xff, 0xe0, 0xa0);
}

}  // namespace rdmadiag::gui::models
