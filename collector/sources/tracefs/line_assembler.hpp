#pragma once
// Cuts a byte stream (trace_pipe reads) into whole lines. A read can end in the middle of a
// line; the tail waits for the next read. A "line" longer than the bound is garbage and is
// dropped up to its newline, so a stream without newlines cannot make the buffer grow.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace rdmadiag::tracefs {

class LineAssembler {
public:
    explicit LineAssembler(size_t max_line = 8192) : max_line_(max_line) {}

    template <class F>
    void feed(std::string_view chunk, F&& on_line) {
        while (!chunk.empty()) {
            size_t nl = chunk.find('\n');
            if (nl == std::string_view::npos) {
                if (!dropping_) {
                    if (partial_.size() + chunk.size() > max_line_) {
                        partial_.clear();
                        dropping_ = true;
                        ++overlong_;
                    } else {
                        partial_.append(chunk);
                    }
                }
                return;
            }
            std::string_view piece = chunk.substr(0, nl);
            chunk.remove_prefix(nl + 1);
            if (dropping_) {
                dropping_ = false;
                continue;
            }
            if (partial_.empty()) {
                // A whole line inside one read is held to the same bound as one that spans reads.
                if (piece.size() > max_line_) {
                    ++overlong_;
                } else {
                    on_line(piece);
                }
            } else if (partial_.size() + piece.size() > max_line_) {
                partial_.clear();
                ++overlong_;
            } else {
                partial_.append(piece);
                on_line(std::string_view(partial_));
                partial_.clear();
            }
        }
    }

    size_t pending() const { return partial_.size(); }
    uint64_t overlong() const { return overlong_; }

private:
    size_t max_line_;
    std::string partial_;
    bool dropping_ = false;
    uint64_t overlong_ = 0;
};

}  // namespace rdmadiag::tracefs
