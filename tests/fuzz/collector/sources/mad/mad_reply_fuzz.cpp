// A MAD reply as the umad device hands it over: header checks, then every attribute decoder the
// sweep uses on the attribute area of an SMP, a PMA GMP and an SA answer, whatever the header
// claims. A reply comes from the fabric, so any byte can be anything; decoders must stay inside
// the bytes and hand back fields no wider than the wire fields they come from.

#include <cstdint>
#include <span>

#include "collector/sources/mad/mad_header.hpp"
#include "collector/sources/mad/pma_attributes.hpp"
#include "collector/sources/mad/sa_records.hpp"
#include "collector/sources/mad/smp_attributes.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;
using namespace rdmadiag::mad;

namespace {

bool fits(unsigned value, unsigned bits) {
    return value < (1u << bits);
}

bool inside(Bytes part, Bytes whole) {
    return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}

void check_header(Bytes mad) {
    auto h = parse_header(mad);
    FUZZ_CHECK(h.ok() == (mad.size() >= 24));
    if (!h) return;
    FUZZ_CHECK(h->mgmt_class == mad[1] && h->method == mad[3]);
    if (h->mgmt_class == static_cast<uint8_t>(MgmtClass::smi_dr)) FUZZ_CHECK(fits(h->status, 15));
    // The fields a request carries come back out of the request built from them.
    auto again = parse_header(build_lid_smp({Method::get, h->attr_id, h->attr_mod, 0}, h->tid));
    FUZZ_CHECK(again && again->tid == h->tid && again->attr_id == h->attr_id &&
               again->attr_mod == h->attr_mod);
    auto checked = check_response(mad);
    if (checked) {
        FUZZ_CHECK(checked->status == 0 && (checked->method & 0x80) != 0);
        FUZZ_CHECK(checked->base_version == 1);
    }
    FUZZ_CHECK(!describe_status(h->status).empty());
}

void check_smp(Bytes data) {
    if (auto n = decode_node_info(data)) {
        FUZZ_CHECK(n->node_type >= 1 && n->node_type <= 3);
        FUZZ_CHECK(fits(n->vendor_id >> 16, 8) && n->vendor_id < (1u << 24));
    }
    if (auto p = decode_port_info(data)) {
        FUZZ_CHECK(fits(p->port_state, 4) && fits(p->phys_state, 4) && fits(p->lmc, 3));
        FUZZ_CHECK(fits(p->link_speed_supported, 4) && fits(p->link_speed_active, 4));
        FUZZ_CHECK(fits(p->neighbor_mtu, 4) && fits(p->master_sm_sl, 4));
        FUZZ_CHECK(fits(p->link_speed_ext_active, 4));
        FUZZ_CHECK(!port_state_name(p->port_state).empty());
        FUZZ_CHECK(!phys_state_name(p->phys_state).empty());
    }
    (void)decode_switch_info(data);
    if (auto e = decode_mlnx_ext_port_info(data)) FUZZ_CHECK(e->fdr10() == ((data[15] & 1) != 0));
    if (auto keys = decode_pkey_block(data)) {
        // Re-encoding the block gives back the bytes it came from.
        FUZZ_CHECK(keys->size() == kPKeyBlockSize);
        uint8_t again[kPKeyTableSize];
        for (size_t i = 0; i < keys->size(); ++i) put16(again, 2 * i, (*keys)[i]);
        FUZZ_CHECK(std::equal(again, again + kPKeyTableSize, data.begin()));
    }
    if (auto guids = decode_guid_block(data)) {
        uint8_t again[kGuidInfoSize];
        for (size_t i = 0; i < kGuidBlockSize; ++i) put64(again, 8 * i, (*guids)[i]);
        FUZZ_CHECK(std::equal(again, again + kGuidInfoSize, data.begin()));
    }
    if (auto d = decode_node_description(data)) {
        FUZZ_CHECK(d->size() <= 64);
        for (char c : *d) FUZZ_CHECK(c >= 0x20 && c < 0x7f);
    }
}

void check_counters(const std::vector<PmaCounter>& counters) {
    for (const auto& c : counters) {
        FUZZ_CHECK(!c.name.empty());
        FUZZ_CHECK(c.width >= 4 && c.width <= 64);
        if (c.width < 64) FUZZ_CHECK(c.value < (uint64_t{1} << c.width));
    }
}

void check_pma(Bytes data) {
    if (auto info = decode_pma_class_port_info(data)) {
        FUZZ_CHECK(fits(info->resp_time_value, 5) && info->capability_mask2 < (1u << 27));
    }
    for (bool xmit_wait : {false, true}) {
        if (auto c = decode_port_counters(data, xmit_wait)) {
            FUZZ_CHECK(c->size() == (xmit_wait ? 17u : 16u));
            check_counters(*c);
        }
    }
    for (bool no_ietf : {false, true}) {
        if (auto c = decode_port_counters_ext(data, no_ietf)) {
            FUZZ_CHECK(c->size() == (no_ietf ? 4u : 8u));
            check_counters(*c);
        }
    }
}

void check_sa(Bytes mad) {
    for (size_t min_size : {kNodeRecordSize, kPortInfoRecordSize, kPKeyTableRecordSize}) {
        auto records = sa_records(mad, min_size);
        if (!records) continue;
        for (Bytes r : *records) {
            FUZZ_CHECK(r.size() >= min_size && inside(r, mad));
            FUZZ_CHECK(r.data() >= mad.data() + kSaHeaderEnd);
            if (min_size == kNodeRecordSize) {
                if (auto n = decode_node_record(r)) FUZZ_CHECK(n->description.size() <= 64);
            } else if (min_size == kPortInfoRecordSize) {
                if (auto p = decode_port_info_record(r)) FUZZ_CHECK(fits(p->info.lmc, 3));
            } else if (auto k = decode_pkey_table_record(r)) {
                FUZZ_CHECK(k->keys.size() == kPKeyBlockSize);
                // The record's selecting fields survive the template a query would send.
                auto t = decode_pkey_table_record(
                    pkey_table_record_template(k->lid, k->block, k->port_num));
                FUZZ_CHECK(t && t->lid == k->lid && t->block == k->block &&
                           t->port_num == k->port_num);
            }
        }
    }
    if (auto records = sa_records(mad, kGuidInfoRecordSize)) {
        for (Bytes r : *records) {
            auto g = decode_guid_info_record(r);
            if (!g) continue;
            auto t = decode_guid_info_record(guid_info_record_template(g->lid, g->block));
            FUZZ_CHECK(t && t->lid == g->lid && t->block == g->block);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Bytes mad(data, size);
    check_header(mad);
    if (auto smp = smp_data(mad)) {
        FUZZ_CHECK(smp->size() == kSmpDataSize && inside(*smp, mad));
        check_smp(*smp);
    }
    if (auto pma = pma_data(mad)) {
        FUZZ_CHECK(inside(*pma, mad));
        check_pma(*pma);
    }
    // The decoders on short and odd-sized data too, as a truncated reply would hand them.
    check_smp(mad);
    check_pma(mad);
    check_sa(mad);
    return 0;
}
