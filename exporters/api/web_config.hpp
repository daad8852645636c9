#pragma once
// The Prometheus exporter-toolkit web configuration file (--web.config.file): TLS for the
// listener and bcrypt-hashed basic-auth users. Settings rdmadiag cannot honour are refused by
// name rather than ignored, so a file never promises protection it does not get.

#include <map>
#include <optional>
#include <string>

#include "collector/common/result.hpp"
#include "collector/common/simple_yaml.hpp"

namespace rdmadiag::api {

enum class TlsVersion { tls10, tls11, tls12, tls13 };
enum class ClientAuth { none, request, require_any, verify_if_given, require_and_verify };

struct TlsSettings {
    std::string cert_file;
    std::string key_file;
    std::string client_ca_file;
    ClientAuth client_auth = ClientAuth::none;
    TlsVersion min_version = TlsVersion::tls12;
    std::optional<TlsVersion> max_version;
};

struct WebConfig {
    std::optional<TlsSettings> tls;
    std::map<std::string, std::string> basic_auth_users;  // user -> bcrypt hash
};

// Relative file names are taken relative to `base_dir` (the config file's folder).
Result<WebConfig> parse_web_config(std::string_view text, const std::string& base_dir = "");
Result<WebConfig> load_web_config(const std::string& path);

}  // namespace rdmadiag::api
