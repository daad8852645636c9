// Every sysfs value parser on the same bytes: a value file's text can be anything a driver (or a
// corrupted read) puts there. Whatever a parser accepts must print back, the way the kernel
// prints it, to text that parses to the same value, and stay within its field's width.

#include <cstdint>
#include <cstdio>
#include <string>

#include "collector/sources/sysfs/sysfs_parsers.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;
using sysfs::kMaxNodeDesc;
using sysfs::kMaxTextValue;
using sysfs::value_line;

namespace {

// "0x" and at least `digits` lower-case hex digits, as the kernel's "0x%0Nx" prints.
std::string hex(unsigned digits, unsigned long long v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(digits), v);
    return buf;
}

void check_value_line(std::string_view text) {
    auto line = value_line(text);
    if (!line) return;
    FUZZ_CHECK(!line->empty() && line->size() <= kMaxTextValue);
    FUZZ_CHECK(line->find('\n') == std::string_view::npos);
    FUZZ_CHECK(line->front() != ' ' && line->back() != ' ');
    FUZZ_CHECK(text == *line || text == std::string(*line) + "\n");
}

void check_numbered(std::string_view text) {
    if (auto s = sysfs::parse_port_state(text)) {
        auto again = sysfs::parse_port_state(std::to_string(static_cast<unsigned>(*s)) + ": " +
                                             std::string(to_string(*s)));
        FUZZ_CHECK(again && *again == *s);
    }
    if (auto p = sysfs::parse_phys_state(text)) {
        auto again = sysfs::parse_phys_state(std::to_string(p->code) + ": " + p->name);
        FUZZ_CHECK(again && *again == *p);
    }
    if (auto n = sysfs::parse_node_type(text)) {
        auto again = sysfs::parse_node_type(std::to_string(n->code) + ": " + n->name + "\n");
        FUZZ_CHECK(again && *again == *n);
    }
}

void check_hex(std::string_view text) {
    if (auto lid = sysfs::parse_lid(text)) {
        auto again = sysfs::parse_lid(hex(1, *lid) + "\n");
        FUZZ_CHECK(again && *again == *lid);
    }
    if (auto mask = sysfs::parse_cap_mask(text)) {
        auto again = sysfs::parse_cap_mask(hex(8, *mask));
        FUZZ_CHECK(again && *again == *mask);
    }
    if (auto pkey = sysfs::parse_pkey_entry(text)) {
        auto again = sysfs::parse_pkey_entry(hex(4, *pkey) + "\n");
        FUZZ_CHECK(again && *again == *pkey);
    }
    if (auto guid = sysfs::parse_guid(text)) {
        char buf[32];
        std::snprintf(
            buf, sizeof buf, "%04x:%04x:%04x:%04x\n", static_cast<unsigned>((*guid >> 48) & 0xffff),
            static_cast<unsigned>((*guid >> 32) & 0xffff),
            static_cast<unsigned>((*guid >> 16) & 0xffff), static_cast<unsigned>(*guid & 0xffff));
        auto again = sysfs::parse_guid(buf);
        FUZZ_CHECK(again && *again == *guid);
    }
    if (auto gid = sysfs::parse_gid(text)) {
        std::string printed = gid->to_string();
        FUZZ_CHECK(printed.size() == 39);
        auto again = sysfs::parse_gid(printed);
        FUZZ_CHECK(again && *again == *gid);
        FUZZ_CHECK(gid->is_zero() == (printed == "0000:0000:0000:0000:0000:0000:0000:0000"));
    }
}

void check_decimal(std::string_view text) {
    if (auto lmc = sysfs::parse_lid_mask_count(text)) {
        auto again = sysfs::parse_lid_mask_count(std::to_string(*lmc));
        FUZZ_CHECK(again && *again == *lmc);
    }
    if (auto c = sysfs::parse_counter(text)) {
        FUZZ_CHECK(!sysfs::is_no_pma(text));
        auto again = sysfs::parse_counter(std::to_string(*c) + "\n");
        FUZZ_CHECK(again && *again == *c);
    }
    if (sysfs::is_no_pma(text)) FUZZ_CHECK(!sysfs::parse_counter(text));
    // A reading is the counter's value, "not available" only for the kernel's own words.
    if (auto r = sysfs::parse_counter_reading(text)) {
        auto c = sysfs::parse_counter(text);
        FUZZ_CHECK(r->value ? c && *c == *r->value : sysfs::is_no_pma(text));
    } else {
        FUZZ_CHECK(!sysfs::parse_counter(text) && !sysfs::is_no_pma(text));
    }
    if (auto index = sysfs::parse_table_index(text)) {
        // Table entries are named "%d": the accepted name is exactly the number printed back.
        FUZZ_CHECK(std::to_string(*index) == text);
    }
}

void check_rate(std::string_view text) {
    auto rate = sysfs::parse_rate(text);
    if (!rate) return;
    FUZZ_CHECK(rate->width >= 1 && rate->width <= 32);
    FUZZ_CHECK(rate->deci_gbps <= 100000u * 10u + 5u);
    std::string printed = std::to_string(rate->deci_gbps / 10);
    if (rate->deci_gbps % 10 != 0) printed += "." + std::to_string(rate->deci_gbps % 10);
    printed += " Gb/sec (" + std::to_string(rate->width) + "X";
    if (!rate->speed.empty()) printed += " " + rate->speed;
    printed += ")\n";
    auto again = sysfs::parse_rate(printed);
    FUZZ_CHECK(again && *again == *rate);
}

void check_text(std::string_view text) {
    if (auto t = sysfs::parse_text_attribute(text)) {
        FUZZ_CHECK(!t->empty() && t->size() <= kMaxTextValue);
        auto again = sysfs::parse_text_attribute(*t + "\n");
        FUZZ_CHECK(again && *again == *t);
    }
    if (auto d = sysfs::parse_node_desc(text)) {
        FUZZ_CHECK(!d->empty() && d->size() <= kMaxNodeDesc);
        auto again = sysfs::parse_node_desc(*d);
        FUZZ_CHECK(again && *again == *d);
    }
    if (auto layer = sysfs::parse_link_layer(text)) {
        // Exactly the three names the kernel prints, each to its own value.
        static constexpr std::pair<std::string_view, LinkLayer> kNames[] = {
            {"InfiniBand", LinkLayer::infiniband},
            {"Ethernet", LinkLayer::ethernet},
            {"Unknown", LinkLayer::unknown}};
        auto line = value_line(text);
        FUZZ_CHECK(line.ok());
        bool named = false;
        for (const auto& [name, value] : kNames)
            named = named || (*line == name && *layer == value);
        FUZZ_CHECK(named);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text = fuzz::as_text(data, size);
    check_value_line(text);
    check_numbered(text);
    check_hex(text);
    check_decimal(text);
    check_rate(text);
    check_text(text);
    return 0;
}
