#include "collector/sources/sysfs/counter_methods.hpp"

#include <algorithm>
#include <cerrno>

#include "collector/sources/sysfs/sysfs_reader.hpp"

namespace rdmadiag::sysfs {

namespace {

constexpr std::string_view kOption = "sysfs.counters";

std::string ports(unsigned n) {
    return std::to_string(n) + (n == 1 ? " port" : " ports");
}

}  // namespace

void MethodValues::assign(std::vector<sources::CounterValue> values) {
    values_ = std::move(values);
    std::sort(values_.begin(), values_.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
}

const sources::CounterValue* MethodValues::find(std::string_view name) const {
    auto it = std::lower_bound(values_.begin(), values_.end(), name,
                               [](const auto& v, std::string_view n) { return v.name < n; });
    if (it == values_.end() || it->name != name) return nullptr;
    return &*it;
}

CounterMethods::CounterMethods(CounterReaders readers) {
    hw_.reader = std::move(readers.hw);
    hw_.folder = "hw_counters/";
    pma_.reader = std::move(readers.pma);
    pma_.folder = "counters/";
}

void CounterMethods::begin_pass(bool retry, sources::CounterTiers due) {
    due_ = due;
    for (Kind* k : {&hw_, &pma_}) {
        k->pass = Tally{};
        if (retry && k->reader) k->reader->retry();
    }
}

const MethodValues* CounterMethods::read(CounterKind kind, const PortRef& port,
                                         const sources::PortFacts& facts) {
    Kind& k = of(kind);
    if (!k.reader) return nullptr;
    auto files = [&](std::string why) -> const MethodValues* {
        ++k.pass.by_files;
        if (!k.pass.first_fallback) k.pass.first_fallback = port.to_string() + ": " + why;
        return nullptr;
    };
    if (!k.reader->applies(facts)) return files("not served by " + std::string(k.reader->method()));
    auto values = k.reader->read(port, facts, due_);
    if (!values) return files(values.error().message);
    ++k.pass.by_method;
    k.values.assign(std::move(values).value());
    return &k.values;
}

void CounterMethods::end_pass() {
    std::string out;
    for (Kind* k : {&hw_, &pma_}) {
        if (!k->reader) continue;
        // A pass whose tiers do not read this folder leaves its last word as it was.
        if (due_.reads(k == &hw_ ? CounterKind::hw : CounterKind::pma)) k->last = k->pass;
        if (!k->last) continue;
        const Tally& t = *k->last;
        const unsigned all = t.by_method + t.by_files;
        if (all == 0) continue;
        if (!out.empty()) out += "; ";
        out += k->folder + " by " + std::string(k->reader->method()) + " on " +
               std::to_string(t.by_method) + " of " + ports(all);
        if (t.first_fallback) out += " (files: " + *t.first_fallback + ")";
    }
    status_ = std::move(out);
}

std::vector<common::Figure> CounterMethods::figures() const {
    std::vector<common::Figure> out;
    for (const Kind* k : {&hw_, &pma_}) {
        if (!k->reader) continue;
        const Tally t = k->last.value_or(Tally{});
        const std::string folder = k == &hw_ ? "hw_counters" : "counters";
        const std::string method(k->reader->method());
        out.push_back({"sysfs_" + folder + "_" + method + "_ports",
                       "Ports whose " + folder + "/ the last counter poll read through " + method,
                       common::Figure::Kind::gauge, static_cast<double>(t.by_method)});
        out.push_back({"sysfs_" + folder + "_file_ports",
                       "Ports whose " + folder + "/ the last counter poll read file by file",
                       common::Figure::Kind::gauge, static_cast<double>(t.by_files)});
    }
    return out;
}

bool counter_methods_wanted(const sources::SourceSettings& settings) {
    if (settings.options.text(kOption) == "files") return false;
    return is_mounted_sysfs(settings.sysfs_root);
}

}  // namespace rdmadiag::sysfs
