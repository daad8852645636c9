#pragma once
// The SA's Report(Notice) (IBA event forwarding, chapter 13): a MAD the SA sends on its
// own, to every subscriber whose InformInfo matches a trap, carrying the trap's Notice. The
// subscriber must answer it with ReportResp(Notice), same TID, or the SA counts the Report as
// lost. parse_report takes the bytes the transport received; build_report_response makes the
// answer from them.

#include <array>
#include <cstdint>

#include "collector/common/result.hpp"
#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/notice.hpp"

namespace rdmadiag::mad {

struct Report {
    uint64_t tid = 0;
    Notice notice;
};

// Whether a received MAD is an SA Report at all (class, method), before parsing it: anything
// else that arrives unasked is not this parser's business.
bool is_sa_report(Bytes mad);
// Fails, saying why, on a MAD that is not a well-formed SA Report(Notice).
Result<Report> parse_report(Bytes mad);
// The ReportResp(Notice) for a Report: its header with the response method, the same TID and
// the Notice echoed back. `report` must have passed parse_report.
std::array<uint8_t, kMadSize> build_report_response(Bytes report);

}  // namespace rdmadiag::mad
