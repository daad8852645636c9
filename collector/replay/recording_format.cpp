#include "collector/replay/recording_format.hpp"

#include "collector/json/checked_json.hpp"

namespace rdmadiag::replay {

std::string recording_header_line(const RecordingHeader& h) {
    codec::OrderedJson j{{"format", kRecordingFormat},
                         {"version", h.version},
                         {"created", format_time(h.created)},
                         {"origin", h.origin}};
    if (!h.host.empty()) j["host"] = h.host;
    return j.dump();
}

Result<RecordingHeader> parse_recording_header(std::string_view line) {
    auto j = codec::Json::parse(line.begin(), line.end(), nullptr, false);
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
    // The parser stores every non-negative integer as unsigned; a negative one is never supported.
    const uint64_t v = version->is_number_unsigned() ? version->get<uint64_t>() : 0;
    if (v < 1 || v > static_cast<uint64_t>(kRecordingVersion)) {
        return make_error("recording version " + version->dump() +
                          " is not supported by this build (reads 1.." +
                          std::to_string(kRecordingVersion) + ")");
    }
    h.version = static_cast<int>(v);
    if (auto c = j.find("created"); c != j.end() && c->is_string()) {
        auto t = parse_time(c->get<std::string>());
        if (t) h.created = *t;
    }
    if (auto o = j.find("origin"); o != j.end() && o->is_string()) h.origin = o->get<std::string>();
    if (auto o = j.find("host"); o != j.end() && o->is_string()) h.host = o->get<std::string>();
    return h;
}

}  // namespace rdmadiag::replay
