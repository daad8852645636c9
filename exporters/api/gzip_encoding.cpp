#include "exporters/api/gzip_encoding.hpp"

#include <zlib.h>

#include <algorithm>
#include <optional>

#include "exporters/api/http_types.hpp"

namespace rdmadiag::api {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// A qvalue is 0 to 1 with up to three decimals; anything else counts as a refusal, so a
// malformed header never gets an encoding it may not understand.
bool positive_q(std::string_view q) {
    if (q.empty() || (q[0] != '0' && q[0] != '1')) return false;
    if (q.size() > 1 && (q[1] != '.' || q.size() > 5)) return false;
    bool positive = q[0] == '1';
    for (size_t i = 2; i < q.size(); ++i) {
        if (q[i] < '0' || q[i] > '9') return false;
        positive = positive || q[i] != '0';
    }
    return positive;
}

// The zlib stream of one compression, ended however the call returns.
class Deflater {
public:
    Deflater() {
        // 16 + MAX_WBITS: the gzip wrapper rather than zlib's own. Level 1: the text is highly
        // repetitive, so the fastest level already gets most of the gain at a fraction of the
        // time, which is what a scrape waits for.
        ok_ = deflateInit2(&z_, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    }
    ~Deflater() {
        if (ok_) deflateEnd(&z_);
    }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;

    bool ok() const { return ok_; }
    z_stream& stream() { return z_; }

private:
    z_stream z_{};
    bool ok_ = false;
};

}  // namespace

bool accepts_gzip(std::string_view accept_encoding) {
    std::optional<bool> gzip;
    std::optional<bool> any;
    while (!accept_encoding.empty()) {
        const size_t comma = accept_encoding.find(',');
        std::string_view item = accept_encoding.substr(0, comma);
        accept_encoding.remove_prefix(comma == std::string_view::npos ? accept_encoding.size()
                                                                      : comma + 1);
        const size_t semi = item.find(';');
        const std::string coding = ascii_lower(trim(item.substr(0, semi)));
        bool wanted = true;
        if (semi != std::string_view::npos) {
            std::string_view params = item.substr(semi + 1);
            while (!params.empty()) {
                const size_t next = params.find(';');
                std::string_view p = trim(params.substr(0, next));
                params.remove_prefix(next == std::string_view::npos ? params.size() : next + 1);
                if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=')
                    wanted = positive_q(trim(p.substr(2)));
            }
        }
        if (coding == "gzip" || coding == "x-gzip") {
            gzip = gzip.value_or(false) || wanted;
        } else if (coding == "*") {
            any = wanted;
        }
    }
    return gzip ? *gzip : any.value_or(false);
}

Result<std::string> gzip_compress(std::string_view data) {
    if (data.size() > UINT32_MAX / 2) return make_error("too large to compress");
    Deflater d;
    if (!d.ok()) return make_error("zlib: cannot start a compression");
    z_stream& z = d.stream();
    std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
    // zlib's interface is not const-correct; it never writes through next_in.
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END) return make_error("zlib: compression failed");
    out.resize(z.total_out);
    return out;
}

struct GzipSink::Stream {
    Deflater deflater;
};

namespace {
// Writes are gathered to this size before zlib sees them: one deflate() call per sample line
// would cost more than the compression itself.
constexpr size_t kGatherBytes = 64 * 1024;
}  // namespace

GzipSink::GzipSink() : z_(std::make_unique<Stream>()) {
    if (!z_->deflater.ok()) error_ = "zlib: cannot start a compression";
    pending_.reserve(kGatherBytes);
}

GzipSink::~GzipSink() = default;

void GzipSink::write(std::string_view text) {
    if (!error_.empty()) return;
    pending_.append(text);
    if (pending_.size() >= kGatherBytes) flush_pending(false);
}

void GzipSink::flush_pending(bool last) {
    z_stream& z = z_->deflater.stream();
    // zlib's interface is not const-correct; it never writes through next_in.
    z.next_in = reinterpret_cast<Bytef*>(pending_.data());
    z.avail_in = static_cast<uInt>(pending_.size());
    const int flush = last ? Z_FINISH : Z_NO_FLUSH;
    for (;;) {
        const size_t used = out_.size();
        const size_t room = std::max<size_t>(kGatherBytes / 4, pending_.size() / 4 + 64);
        out_.resize(used + room);
        z.next_out = reinterpret_cast<Bytef*>(out_.data() + used);
        z.avail_out = static_cast<uInt>(room);
        const int rc = deflate(&z, flush);
        out_.resize(used + room - z.avail_out);
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            error_ = "zlib: compression failed";
            break;
        }
        if (!last && z.avail_in == 0) break;
    }
    pending_.clear();
}

Result<std::string> GzipSink::finish() {
    if (error_.empty()) flush_pending(true);
    if (!error_.empty()) return make_error(error_);
    out_.shrink_to_fit();
    return std::move(out_);
}

}  // namespace rdmadiag::api
