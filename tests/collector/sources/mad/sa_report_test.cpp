#include "collector/sources/mad/sa_report.hpp"

#include <gtest/gtest.h>

#include "tests/collector/sources/mad/trap_notices.hpp"

namespace rdmadiag::mad {
namespace {

// An SA Report as opensm forwards trap 128: BaseVersion 1, class SA (3), ClassVersion 2, method
// Report (6), TID, AttributeID Notice (2); RMPP and SA headers zero; the Notice at byte 56.
std::vector<uint8_t> report_bytes(uint64_t tid) {
    std::vector<uint8_t> r = {0x01, 0x03, 0x02, 0x06, 0x00, 0x00, 0x00, 0x00,
                              0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                              0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    put64(r, 8, tid);
    r.resize(256, 0);
    auto notice = test::link_state_notice(3);
    std::copy(notice.begin(), notice.end(), r.begin() + 56);
    return r;
}

TEST(SaReport, ParsesTheTidAndTheNotice) {
    const auto bytes = report_bytes(0x0000000000001234);
    EXPECT_TRUE(is_sa_report(bytes));
    auto r = parse_report(bytes);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->tid, 0x1234u);
    EXPECT_EQ(r->notice.trap_number(), 128);
    EXPECT_EQ(notice_subject(r->notice).lid, 3);
}

TEST(SaReport, TheAnswerIsAReportRespWithTheSameTidAndNotice) {
    const auto bytes = report_bytes(0x00000000cafe0001);
    const auto resp = build_report_response(bytes);
    EXPECT_EQ(resp[0], 0x01);
    EXPECT_EQ(resp[1], 0x03);
    EXPECT_EQ(resp[2], 0x02);
    EXPECT_EQ(resp[3], 0x86);
    EXPECT_EQ(get16(resp, 4), 0);
    EXPECT_EQ(get64(resp, 8), 0xcafe0001u);
    EXPECT_EQ(get16(resp, 16), 0x0002);
    EXPECT_TRUE(std::equal(resp.begin() + 56, resp.begin() + 56 + kNoticeSize, bytes.begin() + 56));
    EXPECT_FALSE(is_sa_report(resp));
}

TEST(SaReport, MalformedReportsAreErrorsThatSayWhy) {
    struct Case {
        const char* what;
        std::vector<uint8_t> bytes;
        const char* says;
    };
    auto with = [](size_t offset, uint8_t value) {
        auto b = report_bytes(1);
        b[offset] = value;
        return b;
    };
    auto cut = report_bytes(1);
    cut.resize(56 + 40);
    for (const Case& c :
         {Case{"empty", {}, "too short"}, Case{"cut in its Notice", cut, "too short"},
          Case{"class version 1", with(2, 1), "class version"},
          Case{"a GetResp", with(3, 0x81), "not an SA Report"},
          Case{"another class", with(1, 0x04), "not an SA Report"},
          Case{"InformInfo attribute", with(17, 0x03), "does not carry a Notice"}}) {
        auto r = parse_report(c.bytes);
        ASSERT_FALSE(r.ok()) << c.what;
        EXPECT_NE(r.error().message.find(c.says), std::string::npos)
            << c.what << ": " << r.error().message;
    }
}

}  // namespace
}  // namespace rdmadiag::mad
