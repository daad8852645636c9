#include "cli/remote/http_get.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include "collector/common/parse_number.hpp"
#include "collector/common/trim.hpp"
#include "collector/common/unique_fd.hpp"

namespace rdmadiag::cli::remote {

namespace {

struct AddrInfoDeleter {
    void operator()(addrinfo* a) const { freeaddrinfo(a); }
};

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

Result<std::string> dechunk(std::string_view body, size_t max_body) {
    std::string out;
    while (true) {
        const auto eol = body.find("\r\n");
        if (eol == std::string_view::npos) return make_error("truncated chunked body");
        auto size_text = common::trim_blanks(body.substr(0, eol));
        const auto semi = size_text.find(';');
        if (semi != std::string_view::npos) size_text = size_text.substr(0, semi);
        const auto chunk = common::parse_number<size_t>(size_text, 16);
        if (!chunk) return make_error("bad chunk size in response");
        const size_t size = *chunk;
        body.remove_prefix(eol + 2);
        if (size == 0) return out;
        if (size > max_body - out.size()) return make_error("response body too large");
        if (body.size() < size + 2) return make_error("truncated chunked body");
        out.append(body.substr(0, size));
        body.remove_prefix(size + 2);
    }
}

}  // namespace

Result<HttpUrl> parse_http_url(std::string_view url) {
    if (url.rfind("https://", 0) == 0) {
        return make_error(
            "https:// is not supported by --remote; reach the daemon over http:// "
            "(for example through an SSH tunnel)");
    }
    if (url.rfind("http://", 0) != 0)
        return make_error("URL must start with http://: " + std::string(url));
    auto rest = url.substr(7);
    HttpUrl u;
    const auto slash = rest.find('/');
    auto hostport = rest.substr(0, slash);
    if (slash != std::string_view::npos) u.path = std::string(rest.substr(slash));
    if (!hostport.empty() && hostport.front() == '[') {
        const auto close = hostport.find(']');
        if (close == std::string_view::npos) return make_error("bad IPv6 address in URL");
        u.host = std::string(hostport.substr(1, close - 1));
        hostport.remove_prefix(close + 1);
        if (!hostport.empty()) {
            if (hostport.front() != ':') return make_error("bad URL: " + std::string(url));
            u.port = std::string(hostport.substr(1));
        }
    } else {
        const auto colon = hostport.rfind(':');
        u.host = std::string(hostport.substr(0, colon));
        if (colon != std::string_view::npos) u.port = std::string(hostport.substr(colon + 1));
    }
    if (u.host.empty() || u.port.empty() ||
        u.port.find_first_not_of("0123456789") != std::string::npos) {
        return make_error("bad URL: " + std::string(url));
    }
    return u;
}

Result<HttpResponse> parse_http_response(std::string_view raw, size_t max_body) {
    const auto head_end = raw.find("\r\n\r\n");
    if (head_end == std::string_view::npos) return make_error("truncated HTTP response");
    auto head = raw.substr(0, head_end);
    auto body = raw.substr(head_end + 4);
    const auto first_eol = head.find("\r\n");
    const auto status_line = head.substr(0, first_eol);
    if (status_line.rfind("HTTP/1.", 0) != 0 || status_line.size() < 12) {
        return make_error("not an HTTP response");
    }
    HttpResponse r;
    auto code = status_line.substr(9, 3);
    const auto status = common::parse_number<decltype(r.status)>(code);
    if (!status) return make_error("bad HTTP status line");
    r.status = *status;
    bool chunked = false;
    std::optional<size_t> length;
    size_t pos = first_eol == std::string_view::npos ? head.size() : first_eol + 2;
    while (pos < head.size()) {
        auto eol = head.find("\r\n", pos);
        if (eol == std::string_view::npos) eol = head.size();
        const auto line = head.substr(pos, eol - pos);
        pos = eol + 2;
        const auto colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        const auto name = lower(common::trim_blanks(line.substr(0, colon)));
        const auto value = common::trim_blanks(line.substr(colon + 1));
        if (name == "content-type") r.content_type = std::string(value);
        if (name == "transfer-encoding" && lower(value).find("chunked") != std::string::npos) {
            chunked = true;
        }
        if (name == "content-length") {
            length = common::parse_number<size_t>(value);
            if (!length) return make_error("bad Content-Length");
        }
    }
    if (chunked) {
        r.body = RDMADIAG_TRY(dechunk(body, max_body));
    } else if (length) {
        if (*length > max_body) return make_error("response body too large");
        if (body.size() < *length) return make_error("truncated HTTP body");
        r.body = std::string(body.substr(0, *length));
    } else {
        if (body.size() > max_body) return make_error("response body too large");
        r.body = std::string(body);
    }
    return r;
}

Result<HttpResponse> http_get(const HttpUrl& url, const HttpLimits& limits) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    if (int rc = getaddrinfo(url.host.c_str(), url.port.c_str(), &hints, &res); rc != 0) {
        return make_error("cannot resolve " + url.host + ": " + gai_strerror(rc));
    }
    std::unique_ptr<addrinfo, AddrInfoDeleter> addrs(res);
    const auto deadline = std::chrono::steady_clock::now() + limits.timeout;
    auto remaining_ms = [&] {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        return static_cast<int>(std::max<int64_t>(0, left.count()));
    };
    std::string last_error = "no address";
    for (auto* a = addrs.get(); a; a = a->ai_next) {
        common::UniqueFd s(
            ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol));
        if (!s) {
            last_error = std::strerror(errno);
            continue;
        }
        if (::connect(s.get(), a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
            last_error = std::strerror(errno);
            continue;
        }
        pollfd pfd{s.get(), POLLOUT, 0};
        if (::poll(&pfd, 1, remaining_ms()) != 1) {
            last_error = "connection timed out";
            continue;
        }
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(s.get(), SOL_SOCKET, SO_ERROR, &err, &len);
        if (err != 0) {
            last_error = std::strerror(err);
            continue;
        }
        const std::string host =
            url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
        const std::string req = "GET " + url.path + " HTTP/1.1\r\nHost: " + host + ":" + url.port +
                                "\r\nAccept: application/json\r\nConnection: close\r\n"
                                "User-Agent: rdmadiag\r\n\r\n";
        size_t sent = 0;
        while (sent < req.size()) {
            const auto n = ::send(s.get(), req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
            if (n > 0) {
                sent += static_cast<size_t>(n);
                continue;
            }
            if (n < 0 && errno != EAGAIN && errno != EINTR) {
                return make_error(std::string("send failed: ") + std::strerror(errno));
            }
            pfd = pollfd{s.get(), POLLOUT, 0};
            if (::poll(&pfd, 1, remaining_ms()) != 1)
                return make_error("timed out sending request");
        }
        std::string raw;
        char buf[16384];
        const size_t cap = limits.max_body + 65536;
        while (true) {
            const auto n = ::recv(s.get(), buf, sizeof buf, 0);
            if (n > 0) {
                raw.append(buf, static_cast<size_t>(n));
                if (raw.size() > cap) return make_error("response too large");
                continue;
            }
            if (n == 0) break;
            if (errno != EAGAIN && errno != EINTR) {
                return make_error(std::string("receive failed: ") + std::strerror(errno));
            }
            pfd = pollfd{s.get(), POLLIN, 0};
            if (::poll(&pfd, 1, remaining_ms()) != 1) {
                return make_error("timed out waiting for " + url.host + ":" + url.port);
            }
        }
        return parse_http_response(raw, limits.max_body);
    }
    return make_error("cannot connect to " + url.host + ":" + url.port + ": " + last_error);
}

}  // namespace rdmadiag::cli::remote
