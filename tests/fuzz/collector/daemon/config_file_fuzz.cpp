// The configuration files the daemon reads at start-up: the YAML subset reader under both, the
// exporter-toolkit web config (--web.config.file) and the serve config (--config.file). A file
// is written by a person, so anything can be in it; what is accepted must hold what the readers
// promise, and every error names its line.

#include <cstdint>
#include <string>

#include "collector/common/simple_yaml.hpp"
#include "collector/daemon/daemon_config.hpp"
#if RDMADIAG_FUZZ_WEB_CONFIG
#include "exporters/api/web_config.hpp"
#endif
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

namespace {

void check_node(const common::YamlNode& n, int lines) {
    FUZZ_CHECK(n.line >= 0 && n.line <= lines + 1);
    switch (n.kind) {
        case common::YamlNode::Kind::null:
            FUZZ_CHECK(n.map.empty() && n.list.empty());
            break;
        case common::YamlNode::Kind::scalar:
            FUZZ_CHECK(n.map.empty() && n.list.empty());
            break;
        case common::YamlNode::Kind::map:
            FUZZ_CHECK(n.list.empty());
            for (const auto& [k, v] : n.map) {
                FUZZ_CHECK(n.get(k) != nullptr);
                check_node(v, lines);
            }
            break;
        case common::YamlNode::Kind::list:
            FUZZ_CHECK(n.map.empty());
            for (const auto& v : n.list) check_node(v, lines);
            break;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text = fuzz::as_text(data, size);
    int lines = 1;
    for (char c : text) lines += c == '\n';

    auto yaml = common::parse_simple_yaml(text);
    if (yaml) {
        check_node(*yaml, lines);
    } else {
        FUZZ_CHECK(!yaml.error().message.empty());
    }

#if RDMADIAG_FUZZ_WEB_CONFIG
    auto web = api::parse_web_config(text, "/etc/rdmadiag");
    if (web) {
        FUZZ_CHECK(yaml.ok());
        for (const auto& [user, hash] : web->basic_auth_users) {
            FUZZ_CHECK(user.find(':') == std::string::npos && hash.rfind("$2", 0) == 0);
        }
        if (web->tls) {
            FUZZ_CHECK(!web->tls->cert_file.empty() && !web->tls->key_file.empty());
            FUZZ_CHECK(web->tls->cert_file.front() == '/' && web->tls->key_file.front() == '/');
        }
    } else if (yaml) {
        FUZZ_CHECK(web.error().message.rfind("line ", 0) == 0);
    }
#endif

    daemon::DaemonConfig config;
    auto applied = apply_config_text(text, config);
    if (applied) FUZZ_CHECK(yaml.ok());
    return 0;
}
