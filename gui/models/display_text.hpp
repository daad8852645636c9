#pragma once
// How model values read on screen: times, ages, P_Keys and severities, in one place so every
// table says them the same way.

#include <QColor>
#include <QString>
#include <optional>
#include <string>
#include <string_view>

#include "collector/common/time.hpp"
#include "collector/model/finding.hpp"

namespace rdmadiag::gui::models {

QString qs(std::string_view text);
// "14:29:06" for today-ish displays; the full RFC 3339 form is in the tooltip.
QString clock_text(TimePoint t);
QString full_time_text(TimePoint t);
// Whole units, as a table cell should read: "12s", "3m05s", "2h05m", "1d03h"; "-" when `then`
// is unset (epoch).
QString age_text(TimePoint then, TimePoint now);
QString pkey_text(uint16_t raw);  // "0x8001 full", "0x0003 limited", "" for an empty slot

// Lower ranks come first. Stale caches and MRs needing deregistration are what an operator on
// call must see before anything else.
int finding_rank(const Finding& f);
bool is_priority_rule(std::string_view rule);

QColor severity_color(Severity s);       // badge colour
QColor severity_background(Severity s);  // light row tint
// The tint of a cell whose views disagree (P_Key and GID tables, partitions against intent).
QColor differs_background();

}  // namespace rdmadiag::gui::models
