#include "exporters/api/web_config.hpp"
#include "collector/common/text_file.hpp"

#include <algorithm>
#include <iterator>

namespace rdmadiag::api {

namespace {

Error at(const common::YamlNode& n, std::string what) {
    return make_error("line " + std::to_string(n.line) + ": " + std::move(what));
}

std::string resolve(const std::string& base, const std::string& file) {
    if (file.empty() || file.front() == '/' || base.empty()) return file;
    return base + "/" + file;
}

std::optional<TlsVersion> parse_tls_version(std::string_view s) {
    if (s == "TLS10") return TlsVersion::tls10;
    if (s == "TLS11") return TlsVersion::tls11;
    if (s == "TLS12") return TlsVersion::tls12;
    if (s == "TLS13") return TlsVersion::tls13;
    return std::nullopt;
}

std::optional<ClientAuth> parse_client_auth(std::string_view s) {
    if (s == "NoClientCert" || s.empty()) return ClientAuth::none;
    if (s == "RequestClientCert") return ClientAuth::request;
    if (s == "RequireAnyClientCert") return ClientAuth::require_any;
    if (s == "VerifyClientCertIfGiven") return ClientAuth::verify_if_given;
    if (s == "RequireAndVerifyClientCert") return ClientAuth::require_and_verify;
    return std::nullopt;
}

Result<TlsSettings> parse_tls(const common::YamlNode& node, const std::string& base) {
    if (!node.is_map()) return at(node, "tls_server_config must be a mapping");
    TlsSettings tls;
    static const char* const kKnown[] = {"cert_file",        "key_file",    "client_ca_file",
                                         "client_auth_type", "min_version", "max_version"};
    for (const auto& [k, v] : node.map) {
        if (std::find(std::begin(kKnown), std::end(kKnown), k) == std::end(kKnown))
            return at(v, "tls_server_config." + k + " is not supported by rdmadiag");
        if (!v.is_scalar()) return at(v, "tls_server_config." + k + " must be a single value");
        if (k == "cert_file") {
            tls.cert_file = resolve(base, v.scalar);
        } else if (k == "key_file") {
            tls.key_file = resolve(base, v.scalar);
        } else if (k == "client_ca_file") {
            tls.client_ca_file = resolve(base, v.scalar);
        } else if (k == "client_auth_type") {
            auto a = parse_client_auth(v.scalar);
            if (!a) return at(v, "unknown client_auth_type '" + v.scalar + "'");
            tls.client_auth = *a;
        } else if (k == "min_version" || k == "max_version") {
            auto ver = parse_tls_version(v.scalar);
            if (!ver) return at(v, k + " must be TLS10, TLS11, TLS12 or TLS13");
            if (k == "min_version")
                tls.min_version = *ver;
            else
                tls.max_version = *ver;
        } else {
            return at(v, "tls_server_config." + k + " is not supported by rdmadiag");
        }
    }
    if (tls.cert_file.empty() || tls.key_file.empty())
        return at(node, "tls_server_config needs both cert_file and key_file");
    bool verifies = tls.client_auth == ClientAuth::verify_if_given ||
                    tls.client_auth == ClientAuth::require_and_verify;
    if (verifies && tls.client_ca_file.empty())
        return at(node, "client_auth_type needs client_ca_file to verify against");
    return tls;
}

}  // namespace

Result<WebConfig> parse_web_config(std::string_view text, const std::string& base_dir) {
    const auto root = RDMADIAG_TRY(common::parse_simple_yaml(text));
    WebConfig config;
    if (root.is_null()) return config;
    if (!root.is_map()) return at(root, "the web config must be a mapping");
    for (const auto& [k, v] : root.map) {
        if (k == "tls_server_config") {
            if (v.is_null()) continue;
            config.tls = RDMADIAG_TRY(parse_tls(v, base_dir));
        } else if (k == "basic_auth_users") {
            if (v.is_null()) continue;
            if (!v.is_map()) return at(v, "basic_auth_users must map user names to bcrypt hashes");
            for (const auto& [user, hash] : v.map) {
                if (!hash.is_scalar() || hash.scalar.rfind("$2", 0) != 0)
                    return at(hash,
                              "basic_auth_users." + user + " must be a bcrypt hash ($2y$...)");
                if (user.find(':') != std::string::npos)
                    return at(hash, "user names cannot contain ':'");
                config.basic_auth_users[user] = hash.scalar;
            }
        } else if (k == "http_server_config") {
            if (v.is_null()) continue;
            if (!v.is_map()) return at(v, "http_server_config must be a mapping");
            for (const auto& [hk, hv] : v.map) {
                // HTTP/2 is not offered at all; "http2: false" states just that.
                if (hk == "http2" && hv.is_scalar() && hv.scalar == "false") continue;
                return at(hv, "http_server_config." + hk + " is not supported by rdmadiag");
            }
        } else {
            return at(v, "unknown web config setting " + k);
        }
    }
    return config;
}

Result<WebConfig> load_web_config(const std::string& path) {
    const auto text = RDMADIAG_TRY(common::read_text_file(path));
    auto slash = path.rfind('/');
    std::string base = slash == std::string::npos ? "" : path.substr(0, slash);
    auto config = parse_web_config(text, base);
    if (!config) return make_error(path + ": " + config.error().message);
    return config;
}

}  // namespace rdmadiag::api
