#pragma once
// Reads a recording line by line. A line that does not parse is reported with its number and
// skipped; the rest still plays. Only a missing or unsupported header stops the reading, because
// then nothing in the file can be trusted to mean what this build thinks.

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "collector/model/observation.hpp"
#include "collector/replay/recording_format.hpp"

namespace rdmadiag::replay {

struct RecordingProblem {
    uint64_t line = 0;  // 1-based
    std::string message;
    bool operator==(const RecordingProblem&) const = default;
};

class RecordingReader {
public:
    explicit RecordingReader(std::istream& in);

    // The header, or why the recording cannot be read at all.
    const Result<RecordingHeader>& header() const { return header_; }
    // The next good observation, or nullopt at the end (or when the header was bad).
    std::optional<Observation> next();
    const std::vector<RecordingProblem>& problems() const { return problems_; }
    uint64_t lines_read() const { return line_; }

private:
    std::istream& in_;
    uint64_t line_ = 0;  // before header_: reading the header counts lines
    Result<RecordingHeader> header_;
    std::vector<RecordingProblem> problems_;
};

struct Recording {
    RecordingHeader header;
    std::vector<Observation> observations;
    std::vector<RecordingProblem> problems;
};

// Reads a whole recording; fails only on a bad header.
Result<Recording> read_recording(std::istream& in);
Result<Recording> read_recording_file(const std::string& path);

}  // namespace rdmadiag::replay
