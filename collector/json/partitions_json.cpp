#include "collector/json/partitions_json.hpp"

#include "collector/json/json_fields.hpp"

namespace rdmadiag::codec {

namespace {

Json intent_json(const PartitionIntentInfo& intent) {
    Json issues = Json::array();
    for (const auto& i : intent.issues) {
        issues.push_back({{"line", i.line}, {"skipped", i.skipped}, {"message", i.message}});
    }
    return Json{
        {"path", intent.path},
        {"read", time_json(intent.read)},
        {"sm_port_guid", intent.sm_port_guid ? Json(guid_text(*intent.sm_port_guid)) : Json()},
        {"generated_keys", intent.generated_keys},
        {"issues", std::move(issues)}};
}

Json member_json(const PartitionModel& model, const Partition& p, const PartitionMember& m) {
    const EndPort& port = model.ports[m.port];
    Json j;
    j["port"] = port.port.to_string();
    j["node"] = port.node_name;
    j["guid"] = port.guid ? Json(guid_text(*port.guid)) : Json();
    Json views = Json::object();
    for (MemberView v : kAllMemberViews) {
        if (m.in(v) != 0) views[std::string(to_string(v))] = holding_name(m.in(v));
    }
    j["views"] = std::move(views);
    j["held_view"] = to_string(held_view(port));
    j["difference"] = to_string(difference(model, p, m));
    return j;
}

}  // namespace

Json partitions_to_json(const PartitionModel& model, std::optional<uint16_t> pkey) {
    Json parts = Json::array();
    for (const Partition& p : model.partitions) {
        if (pkey && p.pkey != pkey_base(*pkey)) continue;
        Json j;
        j["pkey"] = format_pkey(p.pkey);
        j["name"] = p.name;
        j["intended"] = p.intended;
        Json counts = Json::object();
        for (MemberView v : kAllMemberViews) {
            const auto& c = p.counts[static_cast<size_t>(v)];
            counts[std::string(to_string(v))] = {{"full", c[1]}, {"limited", c[0]}, {"both", c[2]}};
        }
        j["members_per_view"] = std::move(counts);
        if (model.judged(p)) j["differences"] = differences(model, p);
        if (pkey) {
            Json members = Json::array();
            for (const PartitionMember& m : p.members) members.push_back(member_json(model, p, m));
            j["members"] = std::move(members);
        }
        parts.push_back(std::move(j));
    }
    Json out{{"partitions", std::move(parts)},
             {"intent", model.intent.has_value()},
             {"unresolved", model.unresolved}};
    if (model.intent) out["intent_file"] = intent_json(*model.intent);
    return out;
}

}  // namespace rdmadiag::codec
