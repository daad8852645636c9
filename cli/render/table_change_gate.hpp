#pragma once
// The watch commands (pkeys --watch, gids --watch) ask the engine for a snapshot only when a read
// brings a port another table: a subnet sweep re-reads thousands of tables that hold still, and a
// snapshot after each would cost far more than the sweep. The gate keeps the last table read for
// each (port, view) and says whether a read differs from it.

#include <map>
#include <utility>

#include "collector/model/port_ref.hpp"

namespace rdmadiag::cli::render {

template <class View, class Table>
class TableChangeGate {
public:
    // True when `table` differs from the last one read for (port, view). A first read is no
    // change: the engine, started with the watch, has nothing to compare it with either.
    bool changed(const PortRef& port, View view, const Table& table) {
        auto [it, first] = last_.try_emplace({port, view}, table);
        if (first || it->second == table) return false;
        it->second = table;
        return true;
    }

private:
    std::map<std::pair<PortRef, View>, Table> last_;
};

}  // namespace rdmadiag::cli::render
