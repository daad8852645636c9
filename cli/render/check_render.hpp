#pragma once
// `rdmadiag check`: the findings judged once, in the monitoring-plugin form Nagios, Icinga and
// cron understand: an exit code (0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN), one summary line with
// perfdata after '|', then one line per finding.

#include <string>

#include "collector/model/snapshot.hpp"

namespace rdmadiag::cli::render {

enum class CheckStatus : int { ok = 0, warning = 1, critical = 2, unknown = 3 };
std::string_view to_string(CheckStatus s);  // "OK", "WARNING", ...

struct CheckOptions {
    bool info_is_ok = true;  // info findings alone leave the status OK
};

struct CheckResult {
    CheckStatus status = CheckStatus::unknown;
    std::string summary;  // the first line, perfdata included
    std::string details;  // one line per finding, may be empty
    int exit_code() const { return static_cast<int>(status); }
};

CheckResult evaluate_check(const Snapshot& snapshot, const CheckOptions& options = {});
std::string render_check_text(const CheckResult& result);

}  // namespace rdmadiag::cli::render
