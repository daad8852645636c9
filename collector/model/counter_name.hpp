#pragma once
// A counter's name, kept once for the whole process. Every port of a fabric carries the same few
// dozen counter names, and a snapshot lists them per port: a name here is one pointer to a string
// that lives as long as the process, so copies cost nothing and equal names compare by address.
// The set of names is what devices and their drivers call their counters: bounded in practice.

#include <compare>
#include <ostream>
#include <string>
#include <string_view>

namespace rdmadiag {

class CounterName {
public:
    CounterName();
    CounterName(std::string_view name);  // NOLINT: a name converts as the string it is
    CounterName(const std::string& name) : CounterName(std::string_view(name)) {}  // NOLINT
    CounterName(const char* name) : CounterName(std::string_view(name)) {}         // NOLINT

    const std::string& str() const { return *name_; }
    operator const std::string&() const { return *name_; }  // NOLINT
    operator std::string_view() const { return *name_; }    // NOLINT
    const char* c_str() const { return name_->c_str(); }
    size_t size() const { return name_->size(); }
    bool empty() const { return name_->empty(); }
    bool starts_with(std::string_view prefix) const { return name_->starts_with(prefix); }
    bool ends_with(std::string_view suffix) const { return name_->ends_with(suffix); }

    bool operator==(const CounterName& o) const { return name_ == o.name_; }
    std::strong_ordering operator<=>(const CounterName& o) const {
        return name_ == o.name_ ? std::strong_ordering::equal : *name_ <=> *o.name_;
    }
    // One exact overload per kind of text, so that no comparison needs a conversion to choose.
    friend bool operator==(const CounterName& a, std::string_view b) { return a.str() == b; }
    friend bool operator==(const CounterName& a, const std::string& b) { return a.str() == b; }
    friend bool operator==(const CounterName& a, const char* b) { return a.str() == b; }
    friend std::strong_ordering operator<=>(const CounterName& a, std::string_view b) {
        return std::string_view(a.str()) <=> b;
    }
    friend std::strong_ordering operator<=>(const CounterName& a, const std::string& b) {
        return a.str() <=> b;
    }
    friend std::strong_ordering operator<=>(const CounterName& a, const char* b) {
        return std::string_view(a.str()) <=> std::string_view(b);
    }
    friend std::string operator+(const CounterName& a, std::string_view b) {
        return a.str() + std::string(b);
    }
    friend std::string operator+(std::string_view a, const CounterName& b) {
        return std::string(a) + b.str();
    }
    friend std::ostream& operator<<(std::ostream& os, const CounterName& n) {
        return os << n.str();
    }

private:
    const std::string* name_;
};

}  // namespace rdmadiag
