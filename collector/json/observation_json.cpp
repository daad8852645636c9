#include "collector/json/observation_json.hpp"

#include <cstdio>

#include "collector/json/consumer_json.hpp"
#include "collector/json/gid_json.hpp"
#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"

namespace rdmadiag {

using codec::enum_from;
using codec::get_opt;
using codec::get_required;
using codec::get_to;
using codec::JsonDecodeError;
using codec::put_opt;
using json = codec::Json;

// An MR inventory entry is only read here; declared ahead so the field helpers find it.
void from_json(const json& j, MrInventory::Entry& e);

namespace {

void put_port(json& j, const PortRef& p) {
    j["device"] = p.device;
    j["port"] = p.port;
}

void get_port(const json& j, PortRef& p) {
    get_required(j, "device", p.device);
    get_required(j, "port", p.port);
}

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

template <class T>
ObservationBody body_from(const json& j) {
    T v;
    from_json(j, v);
    return v;
}

// DeviceList, MrEvent and MrInventory are only ever encoded here, so their codecs stay local.
void encode(json& j, const DeviceList& v) {
    j["devices"] = v.devices;
}
DeviceList decode_device_list(const json& j) {
    DeviceList v;
    get_required(j, "devices", v.devices);
    return v;
}

void encode(json& j, const MrEvent& v) {
    j["device"] = v.device;
    j["mr"] = v.mr;
    put_opt(j, "key", v.key);
    j["owner"] = v.owner;
    j["op"] = to_string(v.op);
    j["status"] = to_string(v.status);
    put_opt(j, "rc", v.rc);
}
MrEvent decode_mr_event(const json& j) {
    MrEvent v;
    get_required(j, "device", v.device);
    get_required(j, "mr", v.mr);
    get_opt(j, "key", v.key);
    get_to(j, "owner", v.owner);
    v.op = enum_from<MrOp>(j.at("op"), parse_mr_op, "MR operation");
    v.status = enum_from<WcStatus>(j.at("status"), parse_wc_status, "completion status");
    get_opt(j, "rc", v.rc);
    return v;
}

void encode(json& j, const MrInventory& v) {
    j["device"] = v.device;
    j["complete"] = v.complete;
    auto mrs = json::array();
    for (const auto& e : v.mrs) {
        json m{{"mr", e.mr}, {"comm", e.comm}};
        put_opt(m, "pid", e.pid);
        put_opt(m, "length", e.length);
        put_opt(m, "lkey", e.lkey);
        put_opt(m, "rkey", e.rkey);
        if (e.owner_gone) m["owner_gone"] = true;
        mrs.push_back(std::move(m));
    }
    j["mrs"] = std::move(mrs);
}
MrInventory decode_mr_inventory(const json& j) {
    MrInventory v;
    get_required(j, "device", v.device);
    get_to(j, "complete", v.complete);
    get_required(j, "mrs", v.mrs);
    return v;
}

void encode(json& j, const DeviceLimits& v) {
    j["device"] = v.device;
    put_opt(j, "max_mr", v.max_mr);
}
DeviceLimits decode_device_limits(const json& j) {
    DeviceLimits v;
    get_required(j, "device", v.device);
    get_opt(j, "max_mr", v.max_mr);
    return v;
}

void encode(json& j, const PartitionsConfText& v) {
    j["path"] = v.path;
    j["text"] = v.text;
    if (v.sm_port_guid) j["sm_port_guid"] = codec::guid_text(*v.sm_port_guid);
}
PartitionsConfText decode_partitions_conf(const json& j) {
    PartitionsConfText v;
    get_required(j, "path", v.path);
    get_required(j, "text", v.text);
    if (j.contains("sm_port_guid")) v.sm_port_guid = codec::guid_from(j.at("sm_port_guid"));
    return v;
}

template <class T>
void merge(json& j, const T& v) {
    json body = v;
    for (auto& [k, val] : body.items()) j[k] = std::move(val);
}

}  // namespace

void from_json(const json& j, MrInventory::Entry& e) {
    e = MrInventory::Entry{};
    get_required(j, "mr", e.mr);
    get_to(j, "comm", e.comm);
    get_opt(j, "pid", e.pid);
    get_opt(j, "length", e.length);
    get_opt(j, "lkey", e.lkey);
    get_opt(j, "rkey", e.rkey);
    get_to(j, "owner_gone", e.owner_gone);
}

void to_json(json& j, const CounterSample& v) {
    j = json::object();
    put_port(j, v.port);
    j["name"] = v.name;
    j["value"] = v.value;
    j["width"] = v.width;
    j["counter_kind"] = to_string(v.kind);
}

void from_json(const json& j, CounterSample& v) {
    v = CounterSample{};
    get_port(j, v.port);
    get_required(j, "name", v.name);
    get_required(j, "value", v.value);
    get_to(j, "width", v.width);
    if (j.contains("counter_kind")) {
        v.kind = enum_from<CounterKind>(j["counter_kind"], parse_counter_kind, "counter kind");
    }
}

void to_json(json& j, const PKeyTableSample& v) {
    j = json::object();
    put_port(j, v.port);
    j["view"] = to_string(v.view);
    j["table"] = v.table;
}

void from_json(const json& j, PKeyTableSample& v) {
    v = PKeyTableSample{};
    get_port(j, v.port);
    v.view = enum_from<PKeyView>(j.at("view"), parse_pkey_view, "P_Key view");
    get_required(j, "table", v.table);
}

void to_json(json& j, const EventCoverage& v) {
    j = json{{"device", v.device}, {"ports", v.ports}};
}

void from_json(const json& j, EventCoverage& v) {
    v = EventCoverage{};
    get_required(j, "device", v.device);
    get_to(j, "ports", v.ports);
}

void to_json(json& j, const SourceStatus& v) {
    j = json{{"up", v.up}, {"reason", v.reason}};
    if (!v.event_coverage.empty()) j["event_coverage"] = v.event_coverage;
}

void from_json(const json& j, SourceStatus& v) {
    v = SourceStatus{};
    get_required(j, "up", v.up);
    get_to(j, "reason", v.reason);
    get_to(j, "event_coverage", v.event_coverage);
}

std::string codec::format_time_ns(TimePoint t) {
    using namespace std::chrono;
    const auto secs = floor<seconds>(t);
    const auto ns = duration_cast<nanoseconds>(t - secs).count();
    std::string s = format_time(secs);  // "...:SS.000Z"
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%09lldZ", static_cast<long long>(ns));
    return s.substr(0, s.size() - 5) + frac;
}

json codec::observation_to_json(const Observation& obs) {
    json j = json::object();
    j["time"] = format_time_ns(obs.time);
    j["source"] = obs.source;
    j["kind"] = observation_kind(obs.body);
    std::visit(Overloaded{
                   [&](const DeviceList& v) { encode(j, v); },
                   [&](const MrEvent& v) { encode(j, v); },
                   [&](const MrInventory& v) { encode(j, v); },
                   [&](const PartitionsConfText& v) { encode(j, v); },
                   [&](const DeviceLimits& v) { encode(j, v); },
                   [&](const auto& v) { merge(j, v); },
               },
               obs.body);
    return j;
}

Result<Observation> codec::observation_from_json(const json& j) {
    try {
        if (!j.is_object()) return make_error("observation is not a JSON object");
        Observation obs;
        obs.time = codec::time_from(j.at("time"));
        get_required(j, "source", obs.source);
        const auto kind = j.at("kind").get<std::string>();
        if (kind == "device_info") {
            obs.body = body_from<DeviceInfo>(j);
        } else if (kind == "device_list") {
            obs.body = decode_device_list(j);
        } else if (kind == "port_state") {
            obs.body = body_from<PortStateSample>(j);
        } else if (kind == "pkey_table") {
            obs.body = body_from<PKeyTableSample>(j);
        } else if (kind == "counter") {
            obs.body = body_from<CounterSample>(j);
        } else if (kind == "async_event") {
            obs.body = body_from<AsyncEvent>(j);
        } else if (kind == "mr_event") {
            obs.body = decode_mr_event(j);
        } else if (kind == "mr_inventory") {
            obs.body = decode_mr_inventory(j);
        } else if (kind == "source_status") {
            obs.body = body_from<SourceStatus>(j);
        } else if (kind == "sample_error") {
            obs.body = body_from<SampleError>(j);
        } else if (kind == "gid_table") {
            obs.body = body_from<GidTableSample>(j);
        } else if (kind == "partitions_conf") {
            obs.body = decode_partitions_conf(j);
        } else if (kind == "mr_kernel") {
            obs.body = body_from<MrKernelBehaviour>(j);
        } else if (kind == "device_limits") {
            obs.body = decode_device_limits(j);
        } else if (kind == "consumer_inventory") {
            obs.body = body_from<ConsumerInventory>(j);
        } else {
            return make_error("unknown observation kind '" + kind + "'");
        }
        return obs;
    } catch (const std::exception& e) {
        return make_error(std::string("malformed observation: ") + e.what());
    }
}

std::string codec::observation_to_line(const Observation& obs) {
    // time, source and kind lead each line so a person reading a recording sees them first.
    const json j = observation_to_json(obs);
    codec::OrderedJson line;
    for (const char* key : {"time", "source", "kind"}) line[key] = j.at(key);
    for (const auto& [k, v] : j.items()) {
        if (k != "time" && k != "source" && k != "kind") line[k] = v;
    }
    return line.dump();
}

Result<Observation> codec::observation_from_line(std::string_view line) {
    auto j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return make_error("not valid JSON");
    return observation_from_json(j);
}

}  // namespace rdmadiag
