#include "exporters/api/snapshot_views.hpp"

#include <cctype>
#include <map>

#include "collector/json/consumer_json.hpp"
#include "collector/json/gid_json.hpp"
#include "collector/json/json_fields.hpp"
#include "collector/json/model_json.hpp"
#include "collector/json/mr_state_json.hpp"
#include "collector/json/partitions_json.hpp"
#include "collector/json/pkey_diff_json.hpp"
#include "collector/json/pkey_state_json.hpp"
#include "collector/json/snapshot_json.hpp"
#include "exporters/api/json_text.hpp"

namespace rdmadiag::api {

using json = codec::Json;

bool PortFilter::matches(const PortRef& ref) const {
    if (device && ref.device != *device) return false;
    if (port && ref.port != *port) return false;
    return true;
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool contains(std::string_view text, std::string_view lowered_part) {
    return lower(text).find(lowered_part) != std::string::npos;
}

}  // namespace

bool PortFilter::matches_device(const DeviceSnapshot& d) const {
    if (!search || search->empty()) return true;
    const std::string part = lower(*search);
    const auto& i = d.info;
    return contains(i.device, part) || (i.node_desc && contains(*i.node_desc, part)) ||
           (i.node_guid && contains(codec::guid_text(*i.node_guid), part)) ||
           (i.lid && std::to_string(*i.lid) == part);
}

bool PortFilter::matches(const DeviceSnapshot& d, const PortSnapshot& p) const {
    if (!matches(p.ref)) return false;
    if (!search || search->empty() || matches_device(d)) return true;
    const std::string part = lower(*search);
    return (p.info.port_guid && contains(codec::guid_text(*p.info.port_guid), part)) ||
           (p.info.lid && std::to_string(*p.info.lid) == part);
}

namespace {

json header(const Snapshot& snap);

// Collects the rows of a page: add() is called for every match in order and says whether the
// row is on the page; finish() writes `total`, `offset` and `next_offset` beside the rows.
class Pager {
public:
    explicit Pager(const Page& page) : page_(page) {}
    bool add() {
        const size_t index = total_++;
        return index >= page_.offset && (!page_.limit || index < page_.offset + *page_.limit);
    }
    void finish(JsonText& out) const {
        out.field("total", total_).field("offset", page_.offset);
        if (page_.limit && page_.offset + *page_.limit < total_)
            out.field("next_offset", page_.offset + *page_.limit);
    }

private:
    Page page_;
    size_t total_ = 0;
};

// The header fields (version, sequence, time) of every view.
// The same header fields, opening a view written as text.
JsonText header_text(const Snapshot& snap) {
    JsonText out;
    const json fields = header(snap);
    for (const auto& [key, value] : fields.items()) out.field(key, value);
    return out;
}

// Every matching port on the page, as row(device, port) makes it, under "ports".
template <class Row>
std::string paged_ports(const Snapshot& snap, const PortFilter& filter, const Page& page,
                        Row&& row) {
    JsonText out = header_text(snap);
    Pager pager(page);
    out.begin_list("ports");
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            if (filter.matches(d, p) && pager.add()) out.item(row(d, p));
        }
    }
    out.end_list();
    pager.finish(out);
    return out.finish();
}

json header(const Snapshot& snap) {
    return json{{"version", codec::kSnapshotJsonVersion},
                {"sequence", snap.sequence},
                {"time", format_time(snap.time)}};
}

json port_summary(const PortSnapshot& p) {
    json j{{"device", p.ref.device}, {"port", p.ref.port}, {"present", p.present}};
    if (p.info.state) j["state"] = to_string(*p.info.state);
    if (p.info.link_layer) j["link_layer"] = to_string(*p.info.link_layer);
    if (p.info.rate) j["rate"] = *p.info.rate;
    if (p.info.lid) j["lid"] = *p.info.lid;
    json gens = json::object();
    for (const auto& v : p.pkeys.views) gens[std::string(to_string(v.view))] = v.generation;
    j["pkey_generations"] = gens;
    j["counters"] = p.counters.size();
    return j;
}

json differences(const PKeyTable& device, const PKeyTable& other) {
    json out = json::array();
    size_t n = std::max(device.keys.size(), other.keys.size());
    for (size_t i = 0; i < n; ++i) {
        std::optional<uint16_t> a, b;
        if (i < device.keys.size()) a = device.keys[i];
        if (i < other.keys.size()) b = other.keys[i];
        if (a == b) continue;
        json d{{"index", i}};
        d["device"] = a ? json(format_pkey(*a)) : json(nullptr);
        d["view"] = b ? json(format_pkey(*b)) : json(nullptr);
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace

json status_view(const Snapshot& snap, const publish::CollectorStats* stats) {
    json j = header(snap);
    json sources = json::array();
    for (const auto& s : snap.sources) {
        json e = s;
        if (stats) {
            for (const auto& t : stats->sources) {
                if (t.name != s.name) continue;
                e["polls"] = t.polls;
                e["last_poll_seconds"] = to_seconds(t.last_duration);
            }
        }
        sources.push_back(std::move(e));
    }
    j["sources"] = std::move(sources);
    size_t ports = 0, active = 0;
    for (const auto& d : snap.devices) {
        for (const auto& p : d.ports) {
            ++ports;
            if (p.info.state == PortState::active) ++active;
        }
    }
    j["devices"] = snap.devices.size();
    j["ports"] = ports;
    j["ports_active"] = active;
    std::map<std::string, size_t> by_severity{{"info", 0}, {"warning", 0}, {"critical", 0}};
    for (const auto& f : snap.findings) ++by_severity[std::string(to_string(f.severity))];
    j["findings"] = by_severity;
    std::map<std::string, size_t> mrs;
    for (const auto& m : snap.mrs.mrs) ++mrs[std::string(to_string(m.state))];
    j["mrs"] = mrs;
    return j;
}

std::string ports_view(const Snapshot& snap, const PortFilter& filter, const Page& page) {
    return paged_ports(snap, filter, page, [](const DeviceSnapshot& d, const PortSnapshot& p) {
        json e = port_summary(p);
        e["info"] = p.info;
        e["device_info"] = d.info;
        return e;
    });
}

std::string pkeys_view(const Snapshot& snap, const PortFilter& filter, const Page& page) {
    return paged_ports(snap, filter, page, [](const DeviceSnapshot&, const PortSnapshot& p) {
        json views = json::array();
        const PKeyViewState* device = p.pkeys.find(PKeyView::device);
        for (const auto& v : p.pkeys.views) {
            json e = v;
            if (device && v.view != PKeyView::device) {
                e["differs_from_device"] = differences(device->table, v.table);
            }
            views.push_back(std::move(e));
        }
        return json{{"device", p.ref.device}, {"port", p.ref.port}, {"views", views}};
    });
}

std::string gids_view(const Snapshot& snap, const PortFilter& filter, const Page& page) {
    return paged_ports(snap, filter, page, [](const DeviceSnapshot&, const PortSnapshot& p) {
        return json{{"device", p.ref.device}, {"port", p.ref.port}, {"gids", *p.gids}};
    });
}

std::string counters_view(const Snapshot& snap, const PortFilter& filter, const Page& page) {
    return paged_ports(snap, filter, page, [](const DeviceSnapshot&, const PortSnapshot& p) {
        return json{{"device", p.ref.device}, {"port", p.ref.port}, {"counters", p.counters}};
    });
}

std::string devices_view(const Snapshot& snap, const PortFilter& filter,
                         const std::optional<std::string>& node_type, const Page& page) {
    JsonText out = header_text(snap);
    Pager pager(page);
    out.begin_list("devices");
    for (const auto& d : snap.devices) {
        if (filter.device && d.info.device != *filter.device) continue;
        if (node_type && d.info.node_type != *node_type) continue;
        if (!filter.matches_device(d) || !pager.add()) continue;
        size_t active = 0;
        for (const auto& p : d.ports) active += p.info.state == PortState::active ? 1 : 0;
        json e = d.info;
        e["present"] = d.present;
        e["source"] = d.source;
        e["revision"] = d.revision;
        e["ports"] = d.ports.size();
        e["ports_active"] = active;
        out.item(e);
    }
    out.end_list();
    pager.finish(out);
    return out.finish();
}

std::string snapshot_text(const Snapshot& snap) {
    // The fields of codec::snapshot_to_json, devices one at a time.
    JsonText out;
    out.field("version", codec::kSnapshotJsonVersion)
        .field("sequence", snap.sequence)
        .field("time", codec::time_json(snap.time));
    out.begin_list("devices");
    for (const auto& d : snap.devices) out.item(d);
    out.end_list();
    out.field("sources", snap.sources)
        .field("findings", snap.findings)
        .field("finding_history", snap.finding_history)
        .field("events", snap.events)
        .field("errors", snap.errors)
        .field("mrs", snap.mrs)
        .field("pkey_changes", snap.pkey_changes)
        .field("revisions", snap.revisions);
    return out.finish();
}

json findings_view(const Snapshot& snap) {
    json j = header(snap);
    j["active"] = snap.findings;
    j["history"] = snap.finding_history;
    return j;
}

json partitions_view(const Snapshot& snap, std::optional<uint16_t> pkey) {
    json j = header(snap);
    const PartitionModel none;
    json body = codec::partitions_to_json(snap.partitions ? *snap.partitions : none, pkey);
    for (auto& [key, value] : body.items()) j[key] = std::move(value);
    return j;
}

json consumers_view(const Snapshot& snap, const PortFilter& filter) {
    json j = header(snap);
    json body =
        codec::consumers_to_json(snap.consumers.get(), snap.findings, filter.device, filter.port);
    for (auto& [key, value] : body.items()) j[key] = std::move(value);
    return j;
}

json events_view(const Snapshot& snap, const PortFilter& filter) {
    json j = header(snap);
    json events = json::array();
    for (const auto& e : snap.events) {
        if (filter.device && e.event.device != *filter.device) continue;
        if (filter.port && e.event.port != filter.port) continue;
        events.push_back(e);
    }
    j["events"] = std::move(events);
    json totals = json::array();
    for (const auto& t : snap.event_totals) {
        if (filter.device && t.device != *filter.device) continue;
        if (filter.port && t.port != filter.port) continue;
        json e{{"device", t.device}, {"type", to_string(t.type)}, {"count", t.count}};
        e["port"] = t.port ? json(*t.port) : json(nullptr);
        totals.push_back(std::move(e));
    }
    j["totals"] = std::move(totals);
    return j;
}

json mrs_view(const Snapshot& snap, const std::optional<std::string>& state) {
    json j = header(snap);
    json mrs = json::array();
    for (const auto& m : snap.mrs.mrs) {
        if (state && to_string(m.state) != *state) continue;
        mrs.push_back(m);
    }
    j["mrs"] = std::move(mrs);
    j["kernel"] = snap.mrs.kernel;
    j["usage"] = snap.mrs.usage;
    return j;
}

}  // namespace rdmadiag::api
