#include "gui/client/snapshot_recording.hpp"

#include <algorithm>

#include "collector/json/snapshot_json.hpp"

namespace rdmadiag::gui::client {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() &&
           (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n')) {
        s.remove_prefix(1);
    }
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) {
        s.remove_suffix(1);
    }
    return s;
}

}  // namespace

Result<SnapshotRecording> parse_snapshot_recording(std::string_view text) {
    SnapshotRecording rec;
    // A whole document first (pretty-printed JSON spans lines).
    if (auto whole = codec::parse_snapshot_json(text)) {
        rec.snapshots.push_back(std::make_shared<const Snapshot>(std::move(*whole)));
        return rec;
    }
    size_t line_no = 0;
    while (!text.empty()) {
        ++line_no;
        const size_t nl = text.find('\n');
        const std::string_view line = trim(text.substr(0, nl));
        text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
        if (line.empty()) continue;
        auto parsed = codec::parse_snapshot_json(line);
        if (!parsed) {
            if (rec.skipped++ == 0) {
                rec.first_error = "line " + std::to_string(line_no) + ": " + parsed.error().message;
            }
            continue;
        }
        rec.snapshots.push_back(std::make_shared<const Snapshot>(std::move(*parsed)));
    }
    if (rec.snapshots.empty()) {
        return make_error("no snapshot in the recording" +
                          (rec.first_error.empty() ? std::string() : " (" + rec.first_error + ")"));
    }
    std::stable_sort(rec.snapshots.begin(), rec.snapshots.end(),
                     [](const SnapshotPtr& a, const SnapshotPtr& b) { return a->time < b->time; });
    return rec;
}

SnapshotTimeline::SnapshotTimeline(SnapshotRecording recording, std::string description)
    : recording_(std::move(recording)), description_(std::move(description)) {}

Duration SnapshotTimeline::length() const {
    const auto& s = recording_.snapshots;
    return s.empty() ? Duration::zero() : s.back()->time - s.front()->time;
}

SnapshotPtr SnapshotTimeline::seek(Duration offset) {
    const auto& s = recording_.snapshots;
    if (s.empty()) return nullptr;
    const TimePoint target = s.front()->time + std::clamp(offset, Duration::zero(), length());
    auto it = std::upper_bound(s.begin(), s.end(), target,
                               [](TimePoint t, const SnapshotPtr& p) { return t < p->time; });
    return *std::prev(it);
}

}  // namespace rdmadiag::gui::client
