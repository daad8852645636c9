#include "gui/client/partitions_json.hpp"

#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"

namespace rdmadiag::gui::client {

namespace {

using codec::get_required;
using codec::get_to;
using codec::JsonDecodeError;
using json = codec::Json;

std::optional<MemberView> view_named(std::string_view name) {
    for (MemberView v : kAllMemberViews) {
        if (to_string(v) == name) return v;
    }
    return std::nullopt;
}

MemberView view_from(const json& j) {
    const auto name = j.get<std::string>();
    if (auto v = view_named(name)) return *v;
    throw JsonDecodeError("unknown view '" + name + "'");
}

uint8_t holding_from(const json& j) {
    const auto name = j.get<std::string>();
    for (uint8_t h : {kHoldsLimited, kHoldsFull, kHoldsBoth}) {
        if (holding_name(h) == name) return h;
    }
    throw JsonDecodeError("not a membership: '" + name + "'");
}

MemberDifference difference_from(const json& j) {
    const auto name = j.get<std::string>();
    for (auto d : {MemberDifference::none, MemberDifference::missing, MemberDifference::unexpected,
                   MemberDifference::mismatch}) {
        if (to_string(d) == name) return d;
    }
    throw JsonDecodeError("unknown difference '" + name + "'");
}

uint16_t pkey_from(const json& j) {
    auto v = parse_pkey(j.get<std::string>());
    if (!v) throw JsonDecodeError(v.error().message);
    return pkey_base(*v);
}

std::optional<uint64_t> guid_or_null(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    std::optional<uint64_t> out;
    codec::in_field(key, [&] { out = codec::guid_from(*it); });
    return out;
}

const json& object_field(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end()) throw JsonDecodeError("missing", key);
    if (!it->is_object()) throw JsonDecodeError("not an object", key);
    return *it;
}

const json& array_field(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end()) throw JsonDecodeError("missing", key);
    if (!it->is_array()) throw JsonDecodeError("not an array", key);
    return *it;
}

models::PartitionRow partition_from(const json& j) {
    models::PartitionRow row;
    codec::in_field("pkey", [&] {
        if (!j.contains("pkey")) throw JsonDecodeError("missing");
        row.pkey = pkey_from(j.at("pkey"));
    });
    get_to(j, "name", row.name);
    get_to(j, "intended", row.intended);
    const json& counts = object_field(j, "members_per_view");
    // Named, not a structured binding: lambdas capture structured bindings from C++20, and
    // clang 14 has not implemented that yet.
    for (const auto& entry : counts.items()) {
        const auto view = view_named(entry.key());
        if (!view) continue;  // a view from a newer daemon
        const json& c = entry.value();
        codec::in_field("members_per_view", [&] {
            auto& out = row.counts[static_cast<size_t>(*view)];
            get_required(c, "full", out.full);
            get_required(c, "limited", out.limited);
            get_required(c, "both", out.both);
        });
    }
    std::optional<uint32_t> differences;
    codec::get_opt(j, "differences", differences);
    row.differences = differences;
    return row;
}

models::PartitionMemberRow member_from(const json& j) {
    models::PartitionMemberRow m;
    codec::in_field("port", [&] {
        auto ref = parse_port_ref(j.at("port").get<std::string>());
        if (!ref) throw JsonDecodeError(ref.error().message);
        m.port = std::move(*ref);
    });
    get_to(j, "node", m.node);
    m.guid = guid_or_null(j, "guid");
    const json& views = object_field(j, "views");
    for (const auto& entry : views.items()) {
        const auto view = view_named(entry.key());
        if (!view) continue;
        const json& holding = entry.value();
        codec::in_field("views",
                        [&] { m.holds[static_cast<size_t>(*view)] = holding_from(holding); });
    }
    codec::in_field("held_view", [&] { m.held_view = view_from(j.at("held_view")); });
    codec::in_field("difference", [&] { m.difference = difference_from(j.at("difference")); });
    return m;
}

PartitionIntentInfo intent_from(const json& j) {
    PartitionIntentInfo info;
    get_to(j, "path", info.path);
    codec::get_time(j, "read", info.read);
    info.sm_port_guid = guid_or_null(j, "sm_port_guid");
    get_to(j, "generated_keys", info.generated_keys);
    if (auto it = j.find("issues"); it != j.end() && !it->is_null()) {
        codec::in_field("issues", [&] {
            for (const auto& i : *it) {
                PartitionIntentIssue issue;
                get_required(i, "line", issue.line);
                get_to(i, "skipped", issue.skipped);
                get_to(i, "message", issue.message);
                info.issues.push_back(std::move(issue));
            }
        });
    }
    return info;
}

}  // namespace

Result<PartitionsAnswer> parse_partitions_answer(std::string_view text,
                                                 std::optional<uint16_t> members_of) {
    const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return make_error("not valid JSON");
    if (!j.is_object()) return make_error("the partitions answer is not a JSON object");
    try {
        PartitionsAnswer out;
        auto& l = out.listing;
        get_to(j, "sequence", l.sequence);
        codec::get_time(j, "time", l.time);
        get_required(j, "intent", l.intent);
        if (auto it = j.find("intent_file"); it != j.end() && !it->is_null()) {
            codec::in_field("intent_file", [&] { l.intent_file = intent_from(*it); });
        }
        get_to(j, "unresolved", l.unresolved);
        const json& parts = array_field(j, "partitions");
        codec::in_field("partitions", [&] {
            for (const auto& p : parts) l.partitions.push_back(partition_from(p));
        });
        if (!members_of) return out;
        const uint16_t base = pkey_base(*members_of);
        l.members_of = base;
        if (l.partitions.size() != 1 || l.partitions.front().pkey != base) {
            return make_error("the answer does not hold partition " + format_pkey(base) + " alone");
        }
        const json& members = array_field(parts.front(), "members");
        for (const auto& m : members) {
            try {
                l.members.push_back(member_from(m));
            } catch (const std::exception& e) {
                if (out.skipped_members++ == 0) out.first_skip_reason = e.what();
            }
        }
        return out;
    } catch (const std::exception& e) {
        return make_error(std::string("malformed partitions answer: ") + e.what());
    }
}

}  // namespace rdmadiag::gui::client
