#pragma once
// Big-endian field access on MAD bytes. Every MAD field is big-endian and most are whole bytes;
// the few sub-byte fields are read with get_bits. Readers never go past the span: the decoders
// check the length once, up front, and these helpers assume it.

#include <cstddef>
#include <cstdint>
#include <span>

namespace rdmadiag::mad {

using Bytes = std::span<const uint8_t>;
using MutableBytes = std::span<uint8_t>;

inline uint8_t get8(Bytes b, size_t off) {
    return b[off];
}
inline uint16_t get16(Bytes b, size_t off) {
    return static_cast<uint16_t>((b[off] << 8) | b[off + 1]);
}
inline uint32_t get24(Bytes b, size_t off) {
    return (uint32_t{b[off]} << 16) | (uint32_t{b[off + 1]} << 8) | b[off + 2];
}
inline uint32_t get32(Bytes b, size_t off) {
    return (uint32_t{get16(b, off)} << 16) | get16(b, off + 2);
}
inline uint64_t get64(Bytes b, size_t off) {
    return (uint64_t{get32(b, off)} << 32) | get32(b, off + 4);
}
// `width` bits of byte `off`, starting `shift` bits above its least significant bit.
inline uint8_t get_bits(Bytes b, size_t off, unsigned shift, unsigned width) {
    return static_cast<uint8_t>((b[off] >> shift) & ((1u << width) - 1u));
}

inline void put8(MutableBytes b, size_t off, uint8_t v) {
    b[off] = v;
}
inline void put16(MutableBytes b, size_t off, uint16_t v) {
    b[off] = static_cast<uint8_t>(v >> 8);
    b[off + 1] = static_cast<uint8_t>(v);
}
inline void put32(MutableBytes b, size_t off, uint32_t v) {
    put16(b, off, static_cast<uint16_t>(v >> 16));
    put16(b, off + 2, static_cast<uint16_t>(v));
}
inline void put64(MutableBytes b, size_t off, uint64_t v) {
    put32(b, off, static_cast<uint32_t>(v >> 32));
    put32(b, off + 4, static_cast<uint32_t>(v));
}

}  // namespace rdmadiag::mad
