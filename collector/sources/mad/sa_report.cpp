#include "collector/sources/mad/sa_report.hpp"

#include <algorithm>
#include <string>

namespace rdmadiag::mad {

bool is_sa_report(Bytes mad) {
    return mad.size() >= 4 && get8(mad, 1) == static_cast<uint8_t>(MgmtClass::sa) &&
           get8(mad, 3) == static_cast<uint8_t>(Method::report);
}

Result<Report> parse_report(Bytes mad) {
    if (mad.size() < kSaHeaderEnd + kNoticeSize) {
        return make_error("SA Report of " + std::to_string(mad.size()) +
                          " bytes is too short for its headers and a Notice");
    }
    const MadHeader h = RDMADIAG_TRY(parse_header(mad));
    if (h.base_version != 1 || h.class_version != 2) {
        return make_error("SA Report with base/class version " + std::to_string(h.base_version) +
                          "/" + std::to_string(h.class_version) + ", not 1/2");
    }
    if (h.mgmt_class != static_cast<uint8_t>(MgmtClass::sa) ||
        h.method != static_cast<uint8_t>(Method::report)) {
        return make_error("MAD of class " + std::to_string(h.mgmt_class) + " method " +
                          std::to_string(h.method) + " is not an SA Report");
    }
    if (h.attr_id != attr::notice) {
        return make_error("SA Report of attribute " + std::to_string(h.attr_id) +
                          " does not carry a Notice");
    }
    Report r;
    r.tid = h.tid;
    r.notice = RDMADIAG_TRY(decode_notice(mad.subspan(kSaHeaderEnd, kNoticeSize)));
    return r;
}

std::array<uint8_t, kMadSize> build_report_response(Bytes report) {
    std::array<uint8_t, kMadSize> mad{};
    std::copy_n(report.begin(), std::min(report.size(), kMadSize), mad.begin());
    put8(mad, 3, static_cast<uint8_t>(Method::report_response));
    put16(mad, 4, 0);  // status: accepted
    // A single MAD, not an RMPP transfer: RMPPType, flags and status are zero.
    put8(mad, 25, 0);
    put8(mad, 26, 0);
    put8(mad, 27, 0);
    return mad;
}

}  // namespace rdmadiag::mad
