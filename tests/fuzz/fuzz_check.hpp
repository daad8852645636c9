#pragma once
// What a fuzz target asserts. A broken invariant prints what was expected and aborts, which
// libFuzzer reports as a crash and saves the input for.

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace rdmadiag::fuzz {

[[noreturn]] inline void invariant_failed(const char* expr, const char* file, int line) {
    std::fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, expr);
    std::abort();
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace rdmadiag::fuzz

#define FUZZ_CHECK(expr) \
    ((expr) ? static_cast<void>(0) : ::rdmadiag::fuzz::invariant_failed(#expr, __FILE__, __LINE__))
