#include "collector/sources/mad/mad_requests.hpp"

#include "collector/sources/mad/pma_attributes.hpp"

namespace rdmadiag::mad {

MadRequest smp_request(const Route& route, uint16_t attr_id, uint32_t attr_mod) {
    MadRequest req;
    req.target = route.describe();
    SmpRequest smp{Method::get, attr_id, attr_mod, 0};
    if (route.dr) {
        // Paths are checked when they are built; a too-long one never gets here.
        req.mad = build_dr_smp(smp, route.path, 0).value_or({});
        req.agent = Agent::smi_dr;
        req.addr = MadAddress{0xffff, 0, 0, 0};
    } else {
        req.mad = build_lid_smp(smp, 0);
        req.agent = Agent::smi_lid;
        req.addr = MadAddress{route.lid, 0, 0, 0};
    }
    return req;
}

MadRequest pma_request(uint16_t lid, uint16_t attr_id, uint8_t port_select) {
    MadRequest req;
    req.target = "lid " + std::to_string(lid);
    auto payload = port_select_payload(port_select);
    req.mad = build_pma_get(attr_id, 0, payload, 0);
    req.agent = Agent::pma;
    req.addr = MadAddress{lid, 1, kGsiQkey, 0};
    return req;
}

MadRequest sa_request(uint16_t sm_lid, Method method, uint16_t attr_id, uint64_t mask, Bytes templ,
                      uint64_t sm_key) {
    MadRequest req;
    req.target = "sa lid " + std::to_string(sm_lid);
    req.mad = build_sa_query(method, attr_id, mask, templ, sm_key, 0);
    req.agent = Agent::sa;
    req.addr = MadAddress{sm_lid, 1, kGsiQkey, 0};
    return req;
}

Result<std::vector<uint8_t>> checked_answer(Result<std::vector<uint8_t>> answer,
                                            const std::string& what) {
    if (!answer) return make_error(what + ": " + answer.error().message, answer.error().code);
    if (auto h = check_response(*answer); !h) return make_error(what + ": " + h.error().message);
    return answer;
}

Result<Bytes> smp_payload(const Result<std::vector<uint8_t>>& answer) {
    if (!answer) return answer.error();
    return smp_data(*answer);
}

}  // namespace rdmadiag::mad
