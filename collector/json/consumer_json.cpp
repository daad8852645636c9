#include "collector/json/consumer_json.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/model/pkey.hpp"

namespace rdmadiag {

using codec::enum_from;
using codec::get_opt;
using codec::get_required;
using codec::get_to;
using codec::JsonDecodeError;
using codec::put_opt;
using json = codec::Json;

// Fields with nothing to say are left out, so a QP count or a CM ID stays short.
void to_json(json& j, const Consumer& v) {
    j = json{{"kind", to_string(v.kind)},
             {"name", v.name},
             {"device", v.device},
             {"port", v.port},
             {"owner", v.owner}};
    if (v.pkey) j["pkey"] = format_pkey(*v.pkey);
    put_opt(j, "pkey_index", v.pkey_index);
    if (v.index_source != IndexSource::none) j["index_source"] = to_string(v.index_source);
    if (v.gid) j["gid"] = v.gid->to_string();
    for (auto [key, text] : {std::pair{"qp_type", &v.qp_type}, std::pair{"mode", &v.mode},
                             std::pair{"state", &v.state}, std::pair{"parent", &v.parent},
                             std::pair{"address", &v.address}}) {
        if (!text->empty()) j[key] = *text;
    }
    put_opt(j, "carrier", v.carrier);
    put_opt(j, "carrier_changes", v.carrier_changes);
    if (v.kind == ConsumerKind::qp || v.count != 1) j["count"] = v.count;
}

void from_json(const json& j, Consumer& v) {
    v = Consumer{};
    v.kind = enum_from<ConsumerKind>(j.at("kind"), parse_consumer_kind, "consumer kind");
    get_required(j, "name", v.name);
    get_to(j, "device", v.device);
    get_to(j, "port", v.port);
    get_to(j, "owner", v.owner);
    if (j.contains("pkey")) {
        codec::in_field("pkey", [&] {
            auto p = parse_pkey(j.at("pkey").get<std::string>());
            if (!p) throw JsonDecodeError(p.error().message);
            v.pkey = *p;
        });
    }
    get_opt(j, "pkey_index", v.pkey_index);
    if (j.contains("index_source"))
        v.index_source =
            enum_from<IndexSource>(j.at("index_source"), parse_index_source, "index source");
    if (j.contains("gid")) {
        codec::in_field("gid", [&] {
            auto g = parse_gid(j.at("gid").get<std::string>());
            if (!g) throw JsonDecodeError(g.error().message);
            v.gid = *g;
        });
    }
    get_to(j, "qp_type", v.qp_type);
    get_to(j, "mode", v.mode);
    get_to(j, "state", v.state);
    get_to(j, "parent", v.parent);
    get_to(j, "address", v.address);
    get_opt(j, "carrier", v.carrier);
    get_opt(j, "carrier_changes", v.carrier_changes);
    get_to(j, "count", v.count);
}

void to_json(json& j, const ConsumerInventory& v) {
    j = json{{"device", v.device}, {"complete", v.complete}, {"consumers", v.consumers}};
    if (!v.notes.empty()) j["notes"] = v.notes;
}

void from_json(const json& j, ConsumerInventory& v) {
    v = ConsumerInventory{};
    get_required(j, "device", v.device);
    get_to(j, "complete", v.complete);
    get_required(j, "consumers", v.consumers);
    get_to(j, "notes", v.notes);
}

json codec::consumers_to_json(const HostConsumers* consumers, const std::vector<Finding>& findings,
                              const std::optional<std::string>& device,
                              const std::optional<uint32_t>& port) {
    auto devices = json::array();
    if (consumers) {
        for (size_t i = 0; i < consumers->devices.size(); ++i) {
            ConsumerInventory shown = consumers->devices[i];
            if (device && shown.device != *device) continue;
            if (port)
                std::erase_if(shown.consumers, [&](const Consumer& c) { return c.port != *port; });
            json j = shown;
            j["read"] = codec::time_json(consumers->read[i]);
            devices.push_back(std::move(j));
        }
    }
    auto judged = json::array();
    for (const auto& f : findings) {
        if (f.rule.rfind("consumer.", 0) != 0) continue;
        if (device && f.subject.device != *device) continue;
        if (port && f.subject.port && *f.subject.port != *port) continue;
        judged.push_back(f);
    }
    return json{{"listed", consumers != nullptr},
                {"devices", std::move(devices)},
                {"findings", std::move(judged)}};
}

Result<std::optional<HostConsumers>> codec::parse_consumers_answer(std::string_view text) {
    const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return make_error("not valid JSON");
    if (!j.is_object()) return make_error("the consumers answer is not a JSON object");
    try {
        bool listed = false;
        get_required(j, "listed", listed);
        if (!listed) return std::optional<HostConsumers>();
        HostConsumers out;
        auto it = j.find("devices");
        if (it == j.end() || !it->is_array()) return make_error("the answer has no devices array");
        in_field("devices", [&] {
            for (const auto& d : *it) {
                out.devices.push_back(d.get<ConsumerInventory>());
                TimePoint read{};
                get_time(d, "read", read);
                out.read.push_back(read);
            }
        });
        return std::optional<HostConsumers>(std::move(out));
    } catch (const std::exception& e) {
        return make_error(std::string("malformed consumers answer: ") + e.what());
    }
}

}  // namespace rdmadiag
