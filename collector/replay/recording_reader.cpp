#include "collector/replay/recording_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "collector/json/observation_json.hpp"

namespace rdmadiag::replay {

namespace {
Result<RecordingHeader> read_header(std::istream& in, uint64_t& line) {
    std::string text;
    while (std::getline(in, text)) {
        ++line;
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        auto h = parse_recording_header(text);
        if (!h) return make_error("line " + std::to_string(line) + ": " + h.error().message);
        return h;
    }
    return make_error("empty recording: no header line");
}
}  // namespace

RecordingReader::RecordingReader(std::istream& in) : in_(in), header_(read_header(in, line_)) {}

std::optional<Observation> RecordingReader::next() {
    if (!header_) return std::nullopt;
    std::string text;
    while (std::getline(in_, text)) {
        ++line_;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        if (text.find_first_not_of(" \t") == std::string::npos) continue;
        auto obs = codec::observation_from_line(text);
        if (obs) return std::move(obs).value();
        problems_.push_back(RecordingProblem{line_, obs.error().message});
    }
    if (in_.bad()) problems_.push_back(RecordingProblem{line_ + 1, "read error"});
    return std::nullopt;
}

Result<Recording> read_recording(std::istream& in) {
    RecordingReader reader(in);
    auto header = RDMADIAG_TRY(reader.header());
    Recording r;
    r.header = std::move(header);
    while (auto obs = reader.next()) r.observations.push_back(std::move(*obs));
    r.problems = reader.problems();
    return r;
}

Result<Recording> read_recording_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) return make_error("cannot open " + path + ": " + std::strerror(errno), errno);
    auto r = read_recording(in);
    if (!r) return make_error(path + ": " + r.error().message);
    return r;
}

}  // namespace rdmadiag::replay
