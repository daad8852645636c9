#include "gui/client/prometheus_json.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>

namespace rdmadiag::gui::client {

namespace {

std::string label(const PromSample& s, const char* name) {
    const auto it = s.labels.find(name);
    return it == s.labels.end() ? std::string() : it->second;
}

}  // namespace

Result<std::vector<PromSample>> parse_prom_vector(std::string_view text) {
    const auto j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error("not a Prometheus API answer");
    if (j.value("status", "") != "success") {
        return make_error("Prometheus says: " + j.value("error", std::string("no reason given")));
    }
    const auto data = j.find("data");
    if (data == j.end() || !data->is_object() || data->value("resultType", "") != "vector") {
        return make_error("the answer is not an instant vector");
    }
    std::vector<PromSample> out;
    const auto result = data->find("result");
    if (result == data->end() || !result->is_array()) return out;
    for (const auto& r : *result) {
        PromSample s;
        if (const auto m = r.find("metric"); m != r.end() && m->is_object()) {
            for (const auto& [k, v] : m->items()) {
                if (v.is_string()) s.labels[k] = v.get<std::string>();
            }
        }
        // "value": [<unix time>, "<number as text>"]
        const auto v = r.find("value");
        if (v == r.end() || !v->is_array() || v->size() != 2 || !(*v)[1].is_string()) {
            return make_error("a sample without a value");
        }
        s.value = std::strtod((*v)[1].get<std::string>().c_str(), nullptr);
        out.push_back(std::move(s));
    }
    return out;
}

models::FleetState make_fleet_state(const std::vector<PromSample>& findings,
                                    const std::vector<PromSample>& sources_up,
                                    const std::vector<PromSample>& up) {
    std::map<std::string, models::FleetHost> hosts;
    std::set<std::string> jobs;
    auto host = [&](const PromSample& s) -> models::FleetHost& {
        auto& h = hosts[label(s, "instance")];
        h.instance = label(s, "instance");
        h.job = label(s, "job");
        return h;
    };
    for (const auto& s : sources_up) {
        jobs.insert(label(s, "job"));
        host(s).sources.push_back({label(s, "source"), s.value > 0});
    }
    for (const auto& s : findings) {
        jobs.insert(label(s, "job"));
        auto& h = host(s);
        if (s.value <= 0) continue;  // a rule seen before and cleared since
        models::FleetFinding f;
        f.rule = label(s, "rule");
        f.severity = parse_severity(label(s, "severity")).value_or(Severity::warning);
        f.device = label(s, "device");
        const std::string port = label(s, "port");
        if (!port.empty()) f.port = static_cast<uint32_t>(std::strtoul(port.c_str(), nullptr, 10));
        f.count = static_cast<int>(s.value);
        h.findings.push_back(std::move(f));
    }
    for (const auto& s : up) {
        if (!jobs.contains(label(s, "job"))) continue;
        host(s).up = s.value > 0;
    }
    models::FleetState state;
    for (auto& [instance, h] : hosts) {
        std::sort(h.sources.begin(), h.sources.end(),
                  [](const auto& a, const auto& b) { return a.name < b.name; });
        std::sort(h.findings.begin(), h.findings.end(), [](const auto& a, const auto& b) {
            if (a.severity != b.severity)
                return static_cast<int>(a.severity) > static_cast<int>(b.severity);
            return std::tie(a.rule, a.device, a.port) < std::tie(b.rule, b.device, b.port);
        });
        state.hosts.push_back(std::move(h));
    }
    return state;
}

}  // namespace rdmadiag::gui::client
