#pragma once
// P_Key facts (IBA 10.9): bit 15 is the membership bit (1 = full, 0 = limited), the low 15 bits
// are the base key, and a base of 0 marks an empty slot.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/common/result.hpp"

namespace rdmadiag {

constexpr uint16_t kPKeyMembershipBit = 0x8000;
constexpr uint16_t kPKeyBaseMask = 0x7fff;
constexpr uint16_t kDefaultPKey = 0xffff;

constexpr uint16_t pkey_base(uint16_t raw) {
    return raw & kPKeyBaseMask;
}
constexpr bool pkey_is_full(uint16_t raw) {
    return (raw & kPKeyMembershipBit) != 0;
}
constexpr bool pkey_is_empty(uint16_t raw) {
    return pkey_base(raw) == 0;
}

std::string format_pkey(uint16_t raw);               // "0x8001"
Result<uint16_t> parse_pkey(std::string_view text);  // "0x8001", "8001", "32769"

// The views of one port's P_Key table that rdmadiag keeps apart.
enum class PKeyView : uint8_t {
    device,  // what the device reports now (sysfs pkeys/N, ibv_query_pkey)
    sma,     // what the port's SMA answers to SubnGet(P_KeyTable)
    sm,      // what the subnet manager intends (SA PKeyTableRecord)
    cache,   // an event-driven consumer's copy, reloaded on PKEY_CHANGE only
};
constexpr PKeyView kAllPKeyViews[] = {PKeyView::device, PKeyView::sma, PKeyView::sm,
                                      PKeyView::cache};

std::string_view to_string(PKeyView view);
std::optional<PKeyView> parse_pkey_view(std::string_view text);

// A table as one source read it. keys[i] is the raw value at index i; an index whose value could
// not be read is listed in `unreadable` and its keys[i] is 0 and means nothing.
struct PKeyTable {
    std::vector<uint16_t> keys;
    std::vector<uint16_t> unreadable;

    bool complete() const { return unreadable.empty(); }
    size_t used() const;  // non-empty, readable slots
    bool operator==(const PKeyTable&) const = default;
};

// The index the kernel finds for a key (ib_find_pkey(), drivers/infiniband/core/device.c): the
// first readable index holding its base as a full member, else the first as a limited member;
// nullopt when the table holds the base nowhere.
std::optional<uint16_t> find_pkey_index(const PKeyTable& table, uint16_t pkey);

}  // namespace rdmadiag
