#include "collector/json/pkey_state_json.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/pkey_diff_json.hpp"

namespace rdmadiag {

using codec::enum_from;
using codec::get_opt_time;
using codec::get_required;
using codec::get_time;
using codec::get_to;
using codec::time_json;
using json = codec::Json;

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
    if (v.view == PKeyView::cache) j["loaded_generation"] = v.loaded_generation;
}

void from_json(const json& j, PKeyViewState& v) {
    v = PKeyViewState{};
    v.view = enum_from<PKeyView>(j.at("view"), parse_pkey_view, "P_Key view");
    get_required(j, "table", v.table);
    get_to(j, "generation", v.generation);
    get_time(j, "changed", v.changed);
    get_time(j, "confirmed", v.confirmed);
    get_to(j, "source", v.source);
    get_to(j, "loaded_generation", v.loaded_generation);
}

void to_json(json& j, const PortPKeyState& v) {
    j = json{{"views", v.views}, {"cache", to_string(v.cache)}, {"cache_note", v.cache_note}};
    if (v.stale_since) j["stale_since"] = time_json(*v.stale_since);
    if (v.last_diff) j["last_diff"] = *v.last_diff;
}

void from_json(const json& j, PortPKeyState& v) {
    v = PortPKeyState{};
    get_to(j, "views", v.views);
    if (j.contains("cache")) {
        v.cache = enum_from<CacheJudgement>(j["cache"], parse_cache_judgement, "cache judgement");
    }
    get_to(j, "cache_note", v.cache_note);
    get_opt_time(j, "stale_since", v.stale_since);
    if (j.contains("last_diff")) v.last_diff = j["last_diff"].get<PKeyDiff>();
}

}  // namespace rdmadiag
