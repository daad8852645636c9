#include "collector/model/counter_name.hpp"

#include <mutex>
#include <set>

namespace rdmadiag {

namespace {

// Never freed: names outlive every snapshot that holds them. A set's nodes never move.
struct NameTable {
    std::mutex mutex;
    std::set<std::string, std::less<>> names;
};

NameTable& table() {
    static auto* t = new NameTable;
    return *t;
}

const std::string* intern(std::string_view name) {
    auto& t = table();
    std::lock_guard lock(t.mutex);
    auto it = t.names.find(name);
    if (it == t.names.end()) it = t.names.emplace(name).first;
    return &*it;
}

}  // namespace

CounterName::CounterName() : name_(intern({})) {}

CounterName::CounterName(std::string_view name) : name_(intern(name)) {}

}  // namespace rdmadiag
