#include "collector/sources/mad/local_pma_reader.hpp"

#include <algorithm>
#include <array>
#include <cerrno>

#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/mad_requests.hpp"

namespace rdmadiag::mad {

namespace {

// LIDs a port can be addressed at: unicast, not 0 (no LID yet) and not the multicast range.
constexpr uint32_t kMaxUnicastLid = 0xbfff;

Result<std::vector<uint8_t>> checked(Result<std::vector<uint8_t>> answer, const char* what) {
    return checked_answer(std::move(answer), what);
}

// Attribute data of zeros: the decoders are the one list of each attribute's fields, so they are
// asked with it for the names an attribute gives.
constexpr std::array<uint8_t, 192> kZeros{};

bool no_ietf(const PmaClassPortInfo& info) {
    return !(info.capability_mask & kPmaExtendedWidth);
}

// The counters/ names sysfs takes from PortCountersExtended for this PMA (none without it).
std::vector<std::string_view> extended_names(const PmaClassPortInfo& info) {
    std::vector<std::string_view> out;
    if (!sysfs_reads_extended(info)) return out;
    const auto fields = decode_port_counters_ext(kZeros, no_ietf(info));
    for (const auto& c : *fields) out.push_back(c.name);
    return out;
}

bool contains(const std::vector<std::string_view>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

bool sysfs_reads_extended(const PmaClassPortInfo& info) {
    return has_port_counters_ext(info);
}

PmaAttributes sysfs_pma_attributes(const PmaClassPortInfo& info, sources::CounterTiers due) {
    const auto extended = extended_names(info);
    PmaAttributes need;
    // sysfs reads PortXmitWait whatever ClassPortInfo says of it, so the file and this agree.
    const auto fields = decode_port_counters(kZeros, true);
    for (const auto& c : *fields) {
        if (!contains(extended, c.name) && due.covers(CounterKind::pma, c.name)) {
            need.port_counters = true;
        }
    }
    for (auto name : extended) {
        if (due.covers(CounterKind::pma, name)) need.port_counters_ext = true;
    }
    return need;
}

Result<std::vector<sources::CounterValue>> sysfs_pma_values(const PmaClassPortInfo& info,
                                                            std::optional<Bytes> port_counters,
                                                            std::optional<Bytes> ext,
                                                            sources::CounterTiers due) {
    const PmaAttributes need = sysfs_pma_attributes(info, due);
    if (need.port_counters && !port_counters) return make_error("PortCounters not read", ENODATA);
    if (need.port_counters_ext && !ext) {
        return make_error("PortCountersExtended not read", ENODATA);
    }
    const auto extended = extended_names(info);
    std::vector<sources::CounterValue> out;
    auto add = [&](const PmaCounter& c) {
        if (due.covers(CounterKind::pma, c.name)) {
            out.push_back({std::string(c.name), c.value, c.width});
        }
    };
    if (port_counters) {
        for (const auto& c : RDMADIAG_TRY(decode_port_counters(*port_counters, true))) {
            if (!contains(extended, c.name)) add(c);
        }
    }
    if (ext && !extended.empty()) {
        for (const auto& c : RDMADIAG_TRY(decode_port_counters_ext(*ext, no_ietf(info)))) add(c);
    }
    return out;
}

LocalPmaReader::LocalPmaReader(Opener open) : LocalPmaReader(std::move(open), Options{}) {}

LocalPmaReader::LocalPmaReader(Opener open, Options options)
    : open_(std::move(open)), options_(std::move(options)) {}

LocalPmaReader::~LocalPmaReader() = default;

bool LocalPmaReader::applies(const sources::PortFacts& facts) const {
    return facts.link_layer == LinkLayer::infiniband;
}

void LocalPmaReader::retry() {
    // A port given up on is opened afresh: its umad port may have come (ib_umad loaded,
    // permissions changed) or its PMA answer again.
    std::erase_if(ports_, [](const auto& kv) { return kv.second.failed.has_value(); });
}

Result<std::vector<sources::CounterValue>> LocalPmaReader::read(const PortRef& port,
                                                                const sources::PortFacts& facts,
                                                                sources::CounterTiers due) {
    if (!applies(facts)) return make_error("not an InfiniBand port", ENOTSUP);
    if (facts.state != PortState::active || !facts.lid || *facts.lid == 0 ||
        *facts.lid > kMaxUnicastLid) {
        // Not a failure to remember: the port is read through its PMA once it is up.
        return make_error("no PMA to address: the port is not active with a LID", ENETDOWN);
    }
    Port& p = ports_[port];
    if (p.failed) return *p.failed;
    if (!p.transport) {
        auto t = open_(port.device, port.port);
        if (!t) {
            p.failed = make_error("umad: " + t.error().message, t.error().code);
            return *p.failed;
        }
        p.transport = std::move(t).value();
    }
    auto values = read_port(p, port, static_cast<uint16_t>(*facts.lid), due);
    if (!values) p.failed = values.error();
    return values;
}

Result<std::vector<sources::CounterValue>> LocalPmaReader::read_port(Port& p, const PortRef& port,
                                                                     uint16_t lid,
                                                                     sources::CounterTiers due) {
    MadEngine engine(*p.transport, options_.engine, options_.clock);
    const auto select = static_cast<uint8_t>(port.port);
    if (!p.info) {
        auto out = engine.run({pma_request(lid, attr::class_port_info, select)});
        auto answer = RDMADIAG_TRY(checked(std::move(out[0].response), "PMA ClassPortInfo"));
        p.info = RDMADIAG_TRY(decode_pma_class_port_info(RDMADIAG_TRY(pma_data(answer))));
    }
    // Only the attributes that hold a due counter: a fast pass is PortCounters alone.
    const PmaAttributes need = sysfs_pma_attributes(*p.info, due);
    std::vector<MadRequest> requests;
    if (need.port_counters) requests.push_back(pma_request(lid, attr::port_counters, select));
    if (need.port_counters_ext) {
        requests.push_back(pma_request(lid, attr::port_counters_ext, select));
    }
    if (requests.empty()) return std::vector<sources::CounterValue>{};
    auto out = engine.run(std::move(requests));
    size_t next = 0;
    std::optional<std::vector<uint8_t>> base;
    std::optional<std::vector<uint8_t>> extended;
    if (need.port_counters) {
        base = RDMADIAG_TRY(checked(std::move(out[next++].response), "PortCounters"));
    }
    if (need.port_counters_ext) {
        extended = RDMADIAG_TRY(checked(std::move(out[next++].response), "PortCountersExtended"));
    }
    std::optional<Bytes> base_data;
    std::optional<Bytes> ext_data;
    if (base) base_data = RDMADIAG_TRY(pma_data(*base));
    if (extended) ext_data = RDMADIAG_TRY(pma_data(*extended));
    return sysfs_pma_values(*p.info, base_data, ext_data, due);
}

}  // namespace rdmadiag::mad
