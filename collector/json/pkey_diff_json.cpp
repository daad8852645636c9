#include "collector/json/pkey_diff_json.hpp"

#include "collector/json/json_fields.hpp"

namespace rdmadiag {

using codec::enum_from;
using codec::get_opt;
using codec::get_required;
using codec::get_time;
using codec::JsonDecodeError;
using codec::time_json;
using json = codec::Json;

namespace {
uint16_t pkey_from(const json& j) {
    auto p = parse_pkey(j.get<std::string>());
    if (!p) throw JsonDecodeError(p.error().message);
    return *p;
}
}  // namespace

void to_json(json& j, const PKeyEntryChange& v) {
    j = json{{"kind", to_string(v.kind)},
             {"index", v.index},
             {"old_key", format_pkey(v.old_key)},
             {"new_key", format_pkey(v.new_key)}};
    if (v.old_index) j["old_index"] = *v.old_index;
    if (v.previous_key) j["previous_key"] = format_pkey(*v.previous_key);
}

void from_json(const json& j, PKeyEntryChange& v) {
    v = PKeyEntryChange{};
    v.kind = enum_from<PKeyChangeKind>(j.at("kind"), parse_pkey_change_kind, "P_Key change");
    get_required(j, "index", v.index);
    get_opt(j, "old_index", v.old_index);
    v.old_key = pkey_from(j.at("old_key"));
    v.new_key = pkey_from(j.at("new_key"));
    if (j.contains("previous_key")) v.previous_key = pkey_from(j.at("previous_key"));
}

void to_json(json& j, const PKeyDiff& v) {
    j = json{{"device", v.port.device},
             {"port", v.port.port},
             {"view", to_string(v.view)},
             {"old_generation", v.old_generation},
             {"new_generation", v.new_generation},
             {"time", time_json(v.time)},
             {"changes", v.changes}};
}

void from_json(const json& j, PKeyDiff& v) {
    v = PKeyDiff{};
    get_required(j, "device", v.port.device);
    get_required(j, "port", v.port.port);
    v.view = enum_from<PKeyView>(j.at("view"), parse_pkey_view, "P_Key view");
    get_required(j, "old_generation", v.old_generation);
    get_required(j, "new_generation", v.new_generation);
    get_time(j, "time", v.time);
    get_required(j, "changes", v.changes);
}

}  // namespace rdmadiag
