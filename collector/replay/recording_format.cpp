#include "collector/replay/recording_format.hpp"

#include <nlohmann/json.hpp>

namespace rdmadiag {

std::string recording_header_line(const RecordingHeader& h) {
    nlohmann::ordered_json j{{"format", kRecordingFormat},
                             {"version", h.version},
                             {"created", format_time(h.created)},
                             {"origin", h.origin}};
    if (!h.host.empty()) j["host"] = h.host;
    return j.dump();
}

Result<RecordingHeader> parse_recording_header(std::string_view line) {
    auto j = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error("header is not a JSON object");
    const auto format = j.find("format");
    if (format == j.end() || !format->is_string() ||
        format->get<std::string>() != kRecordingFormat) {
        return make_error(
            "not an rdmadiag recording (no \"format\":\"rdmadiag-recording\" header)");
    }
    RecordingHeader h;
    const auto version = j.find("version");
    if (version == j.end() || !version->is_number_integer()) {
        return make_error("recording header has no version");
    }
    h.version = version->get<int>();
    if (h.version < 1 || h.version > kRecordingVersion) {
        return make_error("recording version " + std::to_string(h.version) +
                          " is not supported by this build (reads 1.." +
                          std::to_string(kRecordingVersion) + ")");
    }
    if (auto c = j.find("created"); c != j.end() && c->is_string()) {
        auto t = parse_time(c->get<std::string>());
        if (t) h.created = *t;
    }
    if (auto o = j.find("origin"); o != j.end() && o->is_string()) h.origin = o->get<std::string>();
    if (auto o = j.find("host"); o != j.end() && o->is_string()) h.host = o->get<std::string>();
    return h;
}

}  // namespace rdmadiag
