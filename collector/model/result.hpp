#pragma once
// Result<T>: the return type of every operation that can fail in a way the caller should handle
// (a file that cannot be read, a line that does not parse). Exceptions are kept for start-up and
// configuration errors only.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace rdmadiag {

struct Error {
    std::string message;
    int code = 0;  // errno where one applies, else 0
};

inline Error make_error(std::string message, int code = 0) {
    return Error{std::move(message), code};
}

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value)
        : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit on purpose
    Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(state_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(state_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(state_));
    }
    T value_or(T fallback) const { return ok() ? std::get<0>(state_) : std::move(fallback); }
    const Error& error() const {
        assert(!ok());
        return std::get<1>(state_);
    }

    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

private:
    std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT: implicit on purpose

    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const {
        assert(!ok_);
        return error_;
    }

private:
    Error error_;
    bool ok_ = true;
};

}  // namespace rdmadiag
