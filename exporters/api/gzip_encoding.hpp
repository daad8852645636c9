#pragma once
// gzip content coding for answers: whether a request's Accept-Encoding takes it, and the
// compression itself (zlib with the gzip wrapper), so Prometheus' scrapes ("Accept-Encoding:
// gzip") carry a fraction of the exposition text.

#include <memory>
#include <string>
#include <string_view>

#include "collector/common/result.hpp"
#include "exporters/prometheus/text_sink.hpp"

namespace rdmadiag::api {

// Bodies smaller than this go out as they are: the gzip wrapper alone is 18 bytes and the
// compressor's tables cost a few hundred KiB per call, for nothing saved.
constexpr size_t kMinGzipBytes = 1024;

// True when the Accept-Encoding value accepts gzip: "gzip" (or "x-gzip", or "*") listed with
// no q or a q above 0, and gzip not explicitly refused with q=0. An absent header is false.
bool accepts_gzip(std::string_view accept_encoding);

// `data` in the gzip format (RFC 1952).
Result<std::string> gzip_compress(std::string_view data);

// Compresses text as it is written, so the whole text is never held: only the compressed form
// and zlib's window. finish() ends the stream and hands the result over; an error (zlib out of
// memory) is kept and returned there.
class GzipSink final : public prom::TextSink {
public:
    GzipSink();
    ~GzipSink() override;
    GzipSink(const GzipSink&) = delete;
    GzipSink& operator=(const GzipSink&) = delete;

    void write(std::string_view text) override;
    Result<std::string> finish();

private:
    void flush_pending(bool last);
    struct Stream;
    std::unique_ptr<Stream> z_;
    std::string pending_;  // small writes gathered into one deflate() call
    std::string out_;
    std::string error_;
};

}  // namespace rdmadiag::api
