#include "collector/sources/mad/local_pma_reader.hpp"

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

}  // namespace

bool sysfs_reads_extended(const PmaClassPortInfo& info) {
    return has_port_counters_ext(info);
}

Result<std::vector<sources::CounterValue>> sysfs_pma_values(const PmaClassPortInfo& info,
                                                            Bytes port_counters,
                                                            std::optional<Bytes> ext) {
    // sysfs reads PortXmitWait whatever ClassPortInfo says of it, so the file and this agree.
    auto base = RDMADIAG_TRY(decode_port_counters(port_counters, true));
    std::vector<sources::CounterValue> out;
    out.reserve(base.size() + 4);
    for (const auto& c : base) out.push_back({std::string(c.name), c.value});
    if (!sysfs_reads_extended(info)) return out;
    if (!ext) return make_error("PortCountersExtended not read", ENODATA);
    const bool no_ietf = !(info.capability_mask & kPmaExtendedWidth);
    for (const auto& c : RDMADIAG_TRY(decode_port_counters_ext(*ext, no_ietf))) {
        bool replaced = false;
        for (auto& v : out) {
            if (v.name == c.name) {
                v.value = c.value;
                replaced = true;
            }
        }
        if (!replaced) out.push_back({std::string(c.name), c.value});
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
                                                                const sources::PortFacts& facts) {
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
    auto values = read_port(p, port, static_cast<uint16_t>(*facts.lid));
    if (!values) p.failed = values.error();
    return values;
}

Result<std::vector<sources::CounterValue>> LocalPmaReader::read_port(Port& p, const PortRef& port,
                                                                     uint16_t lid) {
    MadEngine engine(*p.transport, options_.engine, options_.clock);
    const auto select = static_cast<uint8_t>(port.port);
    if (!p.info) {
        auto out = engine.run({pma_request(lid, attr::class_port_info, select)});
        auto answer = RDMADIAG_TRY(checked(std::move(out[0].response), "PMA ClassPortInfo"));
        p.info = RDMADIAG_TRY(decode_pma_class_port_info(RDMADIAG_TRY(pma_data(answer))));
    }
    std::vector<MadRequest> requests{pma_request(lid, attr::port_counters, select)};
    const bool ext = sysfs_reads_extended(*p.info);
    if (ext) requests.push_back(pma_request(lid, attr::port_counters_ext, select));
    auto out = engine.run(std::move(requests));
    auto base = RDMADIAG_TRY(checked(std::move(out[0].response), "PortCounters"));
    std::optional<std::vector<uint8_t>> extended;
    if (ext) extended = RDMADIAG_TRY(checked(std::move(out[1].response), "PortCountersExtended"));
    auto base_data = RDMADIAG_TRY(pma_data(base));
    std::optional<Bytes> ext_data;
    if (extended) ext_data = RDMADIAG_TRY(pma_data(*extended));
    return sysfs_pma_values(*p.info, base_data, ext_data);
}

}  // namespace rdmadiag::mad
