#pragma once
// A P_Key table as the P_Key module keeps it. Tables have 128 (or more) slots of which a port
// uses the first few, so only the slots up to the last non-zero one are stored, with the table's
// length and its unreadable indices; the rest read as 0, as they were read.

#include <cstdint>
#include <memory>
#include <vector>

#include "collector/model/pkey.hpp"

namespace rdmadiag::engine::pkey {

class PackedPKeyTable {
public:
    PackedPKeyTable() = default;
    explicit PackedPKeyTable(const PKeyTable& table);

    // The table as it was read.
    PKeyTable unpack() const;
    // Whether `table` is the one stored here (same length, keys and unreadable indices).
    bool holds(const PKeyTable& table) const;
    size_t slots() const { return slots_; }
    size_t used() const;  // non-empty, readable slots

    bool operator==(const PackedPKeyTable&) const = default;

private:
    uint32_t slots_ = 0;
    uint32_t stored_ = 0;  // data_ holds keys[0, stored_), then the unreadable indices
    std::vector<uint16_t> data_;
};

using SharedPKeyTable = std::shared_ptr<const PackedPKeyTable>;
inline SharedPKeyTable share_pkey_table(const PKeyTable& table) {
    return std::make_shared<const PackedPKeyTable>(table);
}

}  // namespace rdmadiag::engine::pkey
