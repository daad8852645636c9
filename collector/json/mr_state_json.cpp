#include "collector/json/mr_state_json.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"

namespace rdmadiag {

using json_detail::enum_from;
using json_detail::get_opt;
using json_detail::get_time;
using json_detail::get_to;
using json_detail::put_opt;
using json_detail::time_json;
using nlohmann::json;

void to_json(json& j, const MrRecord& v) {
    j = json::object();
    j["device"] = v.device;
    j["mr"] = v.mr;
    put_opt(j, "key", v.key);
    j["owner"] = v.owner;
    j["transport"] = to_string(v.transport);
    j["state"] = to_string(v.state);
    j["state_since"] = time_json(v.state_since);
    j["first_seen"] = time_json(v.first_seen);
    j["last_seen"] = time_json(v.last_seen);
    if (v.last_op) j["last_op"] = to_string(*v.last_op);
    if (v.last_status) j["last_status"] = to_string(*v.last_status);
}

void from_json(const json& j, MrRecord& v) {
    v = MrRecord{};
    j.at("device").get_to(v.device);
    j.at("mr").get_to(v.mr);
    get_opt(j, "key", v.key);
    get_to(j, "owner", v.owner);
    if (j.contains("transport")) {
        v.transport = enum_from<Transport>(j["transport"], parse_transport, "transport");
    }
    v.state = enum_from<MrState>(j.at("state"), parse_mr_state, "MR state");
    get_time(j, "state_since", v.state_since);
    get_time(j, "first_seen", v.first_seen);
    get_time(j, "last_seen", v.last_seen);
    if (j.contains("last_op")) v.last_op = enum_from<MrOp>(j["last_op"], parse_mr_op, "MR op");
    if (j.contains("last_status")) {
        v.last_status = enum_from<WcStatus>(j["last_status"], parse_wc_status, "WC status");
    }
}

void to_json(json& j, const MrHealth& v) { j = json{{"mrs", v.mrs}}; }

void from_json(const json& j, MrHealth& v) {
    v = MrHealth{};
    get_to(j, "mrs", v.mrs);
}

}  // namespace rdmadiag
