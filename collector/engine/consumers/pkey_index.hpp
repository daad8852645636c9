#pragma once
// Which P_Key index a consumer uses, where the kernel does not say: the kernel's rule is
// find_pkey_index() (collector/model/pkey.hpp). IPoIB (drivers/infiniband/ulp/ipoib/): a parent
// interface sends on index 0 and takes whatever key the SM puts there; a child looks its key up
// with ib_find_pkey() when it comes up and after every P_Key change event.

#include <cstdint>
#include <optional>

#include "collector/model/consumer.hpp"
#include "collector/model/pkey.hpp"

namespace rdmadiag::engine::consumers {

// The index an IPoIB interface uses with this table, nullopt when it has none (a child whose key
// is absent: it stays up with its carrier off).
std::optional<uint16_t> ipoib_pkey_index(const Consumer& ipoib, const PKeyTable& table);

}  // namespace rdmadiag::engine::consumers
