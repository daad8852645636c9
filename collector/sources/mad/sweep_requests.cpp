#include "collector/sources/mad/sweep_requests.hpp"

#include <algorithm>
#include <string>

#include "collector/sources/mad/mad_requests.hpp"
#include "collector/sources/mad/sa_records.hpp"

namespace rdmadiag::mad {

namespace {

uint16_t pkey_table_size(const NodeReading& node, uint8_t port, std::string& why) {
    if (!node.is_switch() || port == 0) return node.info.partition_cap;
    if (!node.switch_info) {
        why = "SwitchInfo was not read, so the external ports' P_Key table size is unknown";
        return 0;
    }
    return node.switch_info->partition_enforcement_cap;
}

// A switch's port 0 has no PortCounters of its own.
bool has_pma(const NodeReading& node, const PortReading& port) {
    return port.pma_lid != 0 && !(node.is_switch() && port.port == 0);
}

// The one record of an SA Get answer, decoded.
template <class Record>
Result<Record> one_record(const Result<std::vector<uint8_t>>& answer, size_t size,
                          Result<Record> (*decode)(Bytes), const std::string& what) {
    if (!answer) return answer.error();
    auto recs = RDMADIAG_TRY(sa_records(*answer, size));
    if (recs.empty()) return make_error(what + ": no record");
    return decode(recs.front());
}

Result<PKeyTableRecord> pkey_table_record(const Result<std::vector<uint8_t>>& answer,
                                          uint16_t block) {
    return one_record<PKeyTableRecord>(answer, kPKeyTableRecordSize, decode_pkey_table_record,
                                       "SA PKeyTableRecord block " + std::to_string(block));
}

// The LID SA records name a port by: a switch's own for its port 0, a CA port's own.
uint16_t record_lid(const NodeReading& node, const PortReading& port) {
    return node.is_switch() ? node.lid() : port.info->lid;
}

PortGuidTable& guid_table(PortReading& port) {
    if (!port.guid_table) port.guid_table = std::make_shared<PortGuidTable>();
    return *port.guid_table;
}

// PortCountersExtended's counters that PortCounters does not have (unicast and multicast
// packets).
constexpr size_t kExtendedOnlyCounters = 4;

}  // namespace

void add_switch_info(MadBatch& batch, NodeReading& node) {
    if (!node.is_switch()) return;
    batch.add(smp_request(node.route, attr::switch_info, 0), [&node](auto r) {
        auto answer = checked_answer(std::move(r), "SwitchInfo");
        auto d = smp_payload(answer);
        if (!d) return node.errors.push_back(d.error().message);
        auto s = decode_switch_info(*d);
        if (!s) return node.errors.push_back("SwitchInfo: " + s.error().message);
        node.switch_info = *s;
    });
}

void add_node_description(MadBatch& batch, NodeReading& node) {
    if (!node.description.empty()) return;
    batch.add(smp_request(node.route, attr::node_description, 0), [&node](auto r) {
        auto answer = checked_answer(std::move(r), "NodeDescription");
        auto d = smp_payload(answer);
        if (!d) return node.errors.push_back(d.error().message);
        node.description = decode_node_description(*d).value_or("");
    });
}

void add_port_info(MadBatch& batch, PortReading& port) {
    batch.add(smp_request(port.route, attr::port_info, port.port), [&port](auto r) {
        auto answer = checked_answer(std::move(r), "PortInfo");
        auto d = smp_payload(answer);
        if (!d) return port.errors.push_back(d.error().message);
        auto pi = decode_port_info(*d);
        if (!pi) return port.errors.push_back("PortInfo: " + pi.error().message);
        port.info = *pi;
    });
}

void add_mlnx_ext_port_info(MadBatch& batch, const NodeReading& node, PortReading& port) {
    constexpr uint8_t kQdr = 4;
    if (!port.info || port.info->link_speed_active != kQdr || port.info->link_speed_ext_active != 0)
        return;
    if (port.info->phys_state != kPhysLinkUp) return;
    if (node.is_switch() && port.port == 0) return;
    if (!has_mlnx_ext_port_info(node.info.vendor_id, node.info.device_id)) return;
    batch.add(smp_request(port.route, attr::mlnx_ext_port_info, port.port), [&port](auto r) {
        auto answer = checked_answer(std::move(r), "MlnxExtPortInfo");
        auto d = smp_payload(answer);
        if (!d) return port.errors.push_back(d.error().message);
        auto info = decode_mlnx_ext_port_info(*d);
        if (!info) return port.errors.push_back(info.error().message);
        port.mlnx_ext = *info;
    });
}

void add_pma_class_port_info(MadBatch& batch, NodeReading& node) {
    if (node.pma_lid == 0) return;
    batch.add(pma_request(node.pma_lid, attr::class_port_info, 0), [&node](auto r) {
        auto answer = checked_answer(std::move(r), "PMA ClassPortInfo");
        if (!answer) return node.errors.push_back(answer.error().message);
        auto d = pma_data(*answer);
        if (!d) return node.errors.push_back(d.error().message);
        auto info = decode_pma_class_port_info(*d);
        if (info) node.pma_info = *info;
    });
}

void add_pkey_blocks(MadBatch& batch, const NodeReading& node, PortReading& port) {
    if (!port.table_reachable) return;
    std::string why;
    uint16_t size = pkey_table_size(node, port.port, why);
    if (!why.empty()) return port.errors.push_back(why);
    port.sma_pkeys = std::vector<uint16_t>(size, 0);
    uint8_t sw_port = node.is_switch() ? port.port : 0;
    for (uint16_t block = 0; block < pkey_blocks(size); ++block) {
        batch.add(smp_request(port.route, attr::pkey_table, pkey_table_modifier(block, sw_port)),
                  [&port, block, size](auto r) {
                      auto answer =
                          checked_answer(std::move(r), "P_KeyTable block " + std::to_string(block));
                      auto d = smp_payload(answer);
                      Result<std::vector<uint16_t>> keys =
                          d ? decode_pkey_block(*d) : Result<std::vector<uint16_t>>(d.error());
                      for (size_t i = 0; i < kPKeyBlockSize; ++i) {
                          size_t index = block * kPKeyBlockSize + i;
                          if (index >= size) break;
                          if (keys) {
                              (*port.sma_pkeys)[index] = (*keys)[i];
                          } else {
                              port.sma_unreadable.push_back(static_cast<uint16_t>(index));
                          }
                      }
                      if (!keys) port.errors.push_back(keys.error().message);
                  });
    }
}

void add_port_counters(MadBatch& batch, const NodeReading& node, PortReading& port) {
    if (!has_pma(node, port)) return;
    bool xmit_wait = !node.pma_info || (node.pma_info->capability_mask & kPmaXmitWait);
    batch.add(
        pma_request(port.pma_lid, attr::port_counters, port.port), [&port, xmit_wait](auto r) {
            auto answer = checked_answer(std::move(r), "PortCounters");
            if (!answer) return port.errors.push_back(answer.error().message);
            auto d = pma_data(*answer);
            if (!d) return port.errors.push_back(d.error().message);
            auto counters = decode_port_counters(*d, xmit_wait);
            if (!counters)
                return port.errors.push_back("PortCounters: " + counters.error().message);
            // Room for these and the few only PortCountersExtended carries, once: a
            // port's list would otherwise grow to twice what it holds.
            port.counters.reserve(port.counters.size() + counters->size() + kExtendedOnlyCounters);
            for (auto& c32 : *counters) {
                // 64-bit PortCountersExtended values, when read, win over these.
                bool have = std::any_of(port.counters.begin(), port.counters.end(),
                                        [&](const auto& x) { return x.name == c32.name; });
                if (!have) port.counters.push_back(c32);
            }
        });
}

void add_port_counters_ext(MadBatch& batch, const NodeReading& node, PortReading& port) {
    if (!has_pma(node, port) || !node.pma_info || !has_port_counters_ext(*node.pma_info)) return;
    bool no_ietf = !(node.pma_info->capability_mask & kPmaExtendedWidth);
    batch.add(
        pma_request(port.pma_lid, attr::port_counters_ext, port.port), [&port, no_ietf](auto r) {
            auto answer = checked_answer(std::move(r), "PortCountersExtended");
            if (!answer) return port.errors.push_back(answer.error().message);
            auto d = pma_data(*answer);
            if (!d) return port.errors.push_back(d.error().message);
            auto counters = decode_port_counters_ext(*d, no_ietf);
            if (!counters) return port.errors.push_back(counters.error().message);
            for (auto& c64 : *counters) {
                std::erase_if(port.counters, [&](const auto& x) { return x.name == c64.name; });
                port.counters.push_back(c64);
            }
        });
}

void add_sm_pkey_records(MadBatch& batch, const NodeReading& node, PortReading& port,
                         uint16_t sm_lid, uint64_t sm_key) {
    if (!port.info || !port.sma_pkeys) return;
    uint16_t lid = record_lid(node, port);
    if (lid == 0) return;
    size_t size = port.sma_pkeys->size();
    port.sm_pkeys = std::vector<uint16_t>(size, 0);
    for (uint16_t block = 0; block < pkey_blocks(static_cast<uint16_t>(size)); ++block) {
        auto templ = pkey_table_record_template(lid, block, port.port);
        batch.add(sa_request(sm_lid, Method::get, attr::pkey_table_record,
                             kPKeyRecLid | kPKeyRecBlock | kPKeyRecPort, templ, sm_key),
                  [&port, block, size](auto r) {
                      auto answer = checked_answer(
                          std::move(r), "SA PKeyTableRecord block " + std::to_string(block));
                      auto rec = pkey_table_record(answer, block);
                      if (!rec) {
                          port.sm_pkeys.reset();  // a partial intent is no intent
                          port.errors.push_back(rec.error().message);
                          return;
                      }
                      if (!port.sm_pkeys) return;
                      for (size_t i = 0; i < kPKeyBlockSize; ++i) {
                          size_t index = block * kPKeyBlockSize + i;
                          if (index < size) (*port.sm_pkeys)[index] = rec->keys[i];
                      }
                  });
    }
}

void add_guid_blocks(MadBatch& batch, const NodeReading& node, PortReading& port) {
    if (!port.table_reachable || !port.info || !port_has_gids(node, port)) return;
    const uint8_t cap = port.info->guid_cap;
    if (cap == 0) return;
    PortGuidTable& table = guid_table(port);
    table.sma.assign(cap, 0);
    table.sma_unreadable.clear();
    for (uint16_t block = 0; block < guid_blocks(cap); ++block) {
        batch.add(smp_request(port.route, attr::guid_info, block), [&port, block, cap](auto r) {
            auto answer = checked_answer(std::move(r), "GUIDInfo block " + std::to_string(block));
            auto d = smp_payload(answer);
            auto guids = d ? decode_guid_block(*d) : Result<GuidBlock>(d.error());
            PortGuidTable& t = *port.guid_table;
            for (size_t i = 0; i < kGuidBlockSize; ++i) {
                size_t index = block * kGuidBlockSize + i;
                if (index >= cap) break;
                if (guids) {
                    t.sma[index] = (*guids)[i];
                } else {
                    t.sma_unreadable.push_back(static_cast<uint16_t>(index));
                }
            }
            if (!guids) port.errors.push_back(guids.error().message);
        });
    }
}

void add_sm_gid_records(MadBatch& batch, const NodeReading& node, PortReading& port,
                        uint16_t sm_lid, uint64_t sm_key) {
    if (!port.info || !port_has_gids(node, port)) return;
    const uint16_t lid = record_lid(node, port);
    if (lid == 0) return;
    PortGuidTable& table = guid_table(port);
    table.sm_prefix.reset();
    batch.add(
        sa_request(sm_lid, Method::get, attr::port_info_record, kPortInfoRecLid | kPortInfoRecPort,
                   port_info_record_template(lid, node.is_switch() ? 0 : port.port), sm_key),
        [&port](auto r) {
            auto answer = checked_answer(std::move(r), "SA PortInfoRecord");
            auto rec = one_record<PortInfoRecord>(answer, kPortInfoRecordSize,
                                                  decode_port_info_record, "SA PortInfoRecord");
            if (!rec) return port.errors.push_back(rec.error().message);
            port.guid_table->sm_prefix = rec->info.gid_prefix;
        });
    const uint8_t cap = port.info->guid_cap;
    table.sm.assign(cap, 0);
    table.sm_unreadable.clear();
    for (uint16_t block = 0; block < guid_blocks(cap); ++block) {
        const auto b = static_cast<uint8_t>(block);
        batch.add(
            sa_request(sm_lid, Method::get, attr::guid_info_record, kGuidRecLid | kGuidRecBlock,
                       guid_info_record_template(lid, b), sm_key),
            [&port, block, cap](auto r) {
                const std::string what = "SA GUIDInfoRecord block " + std::to_string(block);
                auto answer = checked_answer(std::move(r), what);
                auto rec = one_record<GuidInfoRecord>(answer, kGuidInfoRecordSize,
                                                      decode_guid_info_record, what);
                PortGuidTable& t = *port.guid_table;
                for (size_t i = 0; i < kGuidBlockSize; ++i) {
                    size_t index = block * kGuidBlockSize + i;
                    if (index >= cap) break;
                    if (rec) {
                        t.sm[index] = rec->guids[i];
                    } else {
                        t.sm_unreadable.push_back(static_cast<uint16_t>(index));
                    }
                }
                if (!rec) port.errors.push_back(rec.error().message);
            });
    }
}

}  // namespace rdmadiag::mad
