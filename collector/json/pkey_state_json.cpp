#include "collector/json/pkey_state_json.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"

namespace rdmadiag {

using json_detail::enum_from;
using json_detail::get_time;
using json_detail::get_to;
using json_detail::time_json;
using nlohmann::json;

void to_json(json& j, const PKeyViewState& v) {
    j = json::object();
    j["view"] = to_string(v.view);
    j["table"] = v.table;
    j["size"] = v.table.keys.size();
    j["used"] = v.table.used();
    j["generation"] = v.generation;
    j["changed"] = time_json(v.changed);
    j["confirmed"] = time_json(v.confirmed);
    j["source"] = v.source;
}

void from_json(const json& j, PKeyViewState& v) {
    v = PKeyViewState{};
    v.view = enum_from<PKeyView>(j.at("view"), parse_pkey_view, "P_Key view");
    j.at("table").get_to(v.table);
    get_to(j, "generation", v.generation);
    get_time(j, "changed", v.changed);
    get_time(j, "confirmed", v.confirmed);
    get_to(j, "source", v.source);
}

void to_json(json& j, const PortPKeyState& v) { j = json{{"views", v.views}}; }

void from_json(const json& j, PortPKeyState& v) {
    v = PortPKeyState{};
    get_to(j, "views", v.views);
}

}  // namespace rdmadiag
