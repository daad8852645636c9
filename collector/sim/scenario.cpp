#include "collector/sim/scenario.hpp"

namespace rdmadiag::sim {

std::string_view to_string(PKeyOp op) {
    switch (op) {
        case PKeyOp::set:
            return "pkey-set";
        case PKeyOp::clear:
            return "pkey-clear";
        case PKeyOp::move:
            return "pkey-move";
        case PKeyOp::flip:
            return "pkey-flip";
        case PKeyOp::table:
            return "pkey-table";
    }
    return "pkey-set";
}

std::string_view to_string(CounterOverflow o) {
    return o == CounterOverflow::saturate ? "saturate" : "wrap";
}

}  // namespace rdmadiag::sim
