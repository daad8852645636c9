#pragma once
// Where exposition text goes as it is written: a string, or a compressor that never holds the
// whole text (exporters/api's GzipSink), so a scrape of a large fabric needs no more memory than
// its own output.

#include <string>
#include <string_view>

namespace rdmadiag::prom {

class TextSink {
public:
    virtual ~TextSink() = default;
    virtual void write(std::string_view text) = 0;
};

class StringSink final : public TextSink {
public:
    explicit StringSink(std::string& out) : out_(out) {}
    void write(std::string_view text) override { out_.append(text); }

private:
    std::string& out_;
};

}  // namespace rdmadiag::prom
