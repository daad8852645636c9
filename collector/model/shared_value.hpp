#pragma once
// A value held behind a shared, immutable pointer: copies share it, an empty one reads as T{}, and
// equality compares what is held. For parts of a snapshot that most ports lack or that rarely
// change, so each port carries a pointer rather than the whole struct.

#include <memory>

namespace rdmadiag {

template <class T>
class SharedValue {
public:
    SharedValue() = default;
    SharedValue(T value)  // NOLINT(google-explicit-constructor): assigned like the value it holds
        : held_(std::make_shared<const T>(std::move(value))) {}

    const T& get() const { return held_ ? *held_ : empty_value(); }
    const T& operator*() const { return get(); }
    const T* operator->() const { return &get(); }
    bool has_value() const { return held_ != nullptr; }

    bool operator==(const SharedValue& other) const {
        return held_ == other.held_ || get() == other.get();
    }

private:
    static const T& empty_value() {
        static const T kEmpty{};
        return kEmpty;
    }
    std::shared_ptr<const T> held_;
};

}  // namespace rdmadiag
