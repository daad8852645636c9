#include "collector/sources/mad/mad_requests.hpp"

#include <gtest/gtest.h>

#include <cerrno>

namespace rdmadiag::mad {
namespace {

TEST(MadRequests, AnSmpGoesByDirectedRouteOrByLidAsItsRouteSays) {
    MadRequest dr = smp_request(Route{true, {1, 3}, 0}, attr::port_info, 2);
    EXPECT_EQ(dr.agent, Agent::smi_dr);
    EXPECT_EQ(dr.addr.dlid, 0xffff);
    EXPECT_EQ(dr.target, "dr 0,1,3");
    EXPECT_EQ(dr.mad[1], static_cast<uint8_t>(MgmtClass::smi_dr));
    EXPECT_EQ(get16(dr.mad, 16), attr::port_info);
    EXPECT_EQ(get32(dr.mad, 20), 2u);

    MadRequest lid = smp_request(Route{false, {}, 9}, attr::switch_info, 0);
    EXPECT_EQ(lid.agent, Agent::smi_lid);
    EXPECT_EQ(lid.addr.dlid, 9);
    EXPECT_EQ(lid.addr.qpn, 0u);
    EXPECT_EQ(lid.target, "lid 9");
    EXPECT_EQ(lid.mad[1], static_cast<uint8_t>(MgmtClass::smi_lid));
}

TEST(MadRequests, PmaAndSaQueriesGoToQp1WithTheGsiQkey) {
    MadRequest pma = pma_request(12, attr::port_counters, 3);
    EXPECT_EQ(pma.agent, Agent::pma);
    EXPECT_EQ(pma.target, "lid 12");
    EXPECT_EQ(pma.addr.qpn, 1u);
    EXPECT_EQ(pma.addr.qkey, kGsiQkey);
    EXPECT_EQ(pma.mad[kGmpDataOffset + 1], 3) << "PortSelect";

    MadRequest sa = sa_request(1, Method::get_table, attr::node_record, 0, {}, 0);
    EXPECT_EQ(sa.agent, Agent::sa);
    EXPECT_EQ(sa.target, "sa lid 1");
    EXPECT_EQ(sa.addr.dlid, 1);
    EXPECT_EQ(sa.addr.qkey, kGsiQkey);
    EXPECT_EQ(sa.mad[3], static_cast<uint8_t>(Method::get_table));
}

TEST(MadRequests, ACheckedAnswerNamesTheStepInItsError) {
    auto lost = checked_answer(make_error("lid 4: no answer", ETIMEDOUT), "PortInfo");
    ASSERT_FALSE(lost);
    EXPECT_EQ(lost.error().message, "PortInfo: lid 4: no answer");
    EXPECT_EQ(lost.error().code, ETIMEDOUT);

    auto request = smp_request(Route{false, {}, 4}, attr::port_info, 1);
    std::vector<uint8_t> not_a_response(request.mad.begin(), request.mad.end());
    auto refused = checked_answer(not_a_response, "PortInfo");
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.rfind("PortInfo: ", 0), 0u) << refused.error().message;

    std::vector<uint8_t> response = not_a_response;
    response[3] = static_cast<uint8_t>(Method::get_response);
    response[kSmpDataOffset] = 0x42;
    auto ok = checked_answer(response, "PortInfo");
    ASSERT_TRUE(ok);
    auto data = smp_payload(ok);
    ASSERT_TRUE(data);
    EXPECT_EQ(data->size(), kSmpDataSize);
    EXPECT_EQ((*data)[0], 0x42);
}

}  // namespace
}  // namespace rdmadiag::mad
