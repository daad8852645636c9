#pragma once
// Result<T>: the return type of every operation that can fail in a way the caller should handle
// (a file that cannot be read, a line that does not parse). Exceptions are kept for start-up and
// configuration errors only. RDMADIAG_TRY passes an error up and yields the value otherwise.

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace rdmadiag::common {

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

namespace detail {
// The value RDMADIAG_TRY yields: the Result's value, or nothing for Result<void>.
template <class T>
T take_value(Result<T>&& result) {
    return std::move(result).value();
}
inline void take_value(Result<void>&&) {}
}  // namespace detail

}  // namespace rdmadiag::common

// The root namespace uses the result vocabulary unqualified in every folder. A using-declaration,
// not a second definition: anything else named Result or Error in the root fails to compile.
namespace rdmadiag {
using common::Error;
using common::make_error;
using common::Result;
}  // namespace rdmadiag

// `auto x = RDMADIAG_TRY(expr);` returns expr's error from the enclosing function, which must
// return a Result, and otherwise yields expr's value (nothing for Result<void>). A GNU statement
// expression (g++ and clang); __extension__ keeps -Wpedantic quiet about it. Each use names its
// temporary after __COUNTER__, so a TRY inside a lambda inside a TRY shadows nothing. Not inside
// the arguments of a new-expression: its return would leave the allocation behind.
#define RDMADIAG_TRY(...) \
    RDMADIAG_TRY_NAMED(RDMADIAG_TRY_CONCAT(rdmadiag_try_, __COUNTER__), __VA_ARGS__)
#define RDMADIAG_TRY_CONCAT(a, b) RDMADIAG_TRY_CONCAT_(a, b)
#define RDMADIAG_TRY_CONCAT_(a, b) a##b
#define RDMADIAG_TRY_NAMED(name, ...)                            \
    __extension__({                                              \
        auto name = (__VA_ARGS__);                               \
        if (!name) return name.error();                          \
        ::rdmadiag::common::detail::take_value(std::move(name)); \
    })
