#include "collector/sources/partitions_conf/partitions_conf_source.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "collector/common/text_file.hpp"
#include "collector/sources/partitions_conf/partitions_options.hpp"

namespace rdmadiag::partitions_conf {

namespace {

Result<FileStamp> stamp_of(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int err = errno;
        return make_error(path + ": " + std::strerror(err), err);
    }
    if (S_ISDIR(st.st_mode)) return make_error(path + ": is a directory", EISDIR);
    return FileStamp{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
                     static_cast<int64_t>(st.st_size),
                     static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

}  // namespace

PartitionsConfSource::PartitionsConfSource(std::string path, std::optional<uint64_t> sm_port_guid,
                                           Duration interval)
    : path_(std::move(path)), sm_port_guid_(sm_port_guid), interval_(interval) {}

void PartitionsConfSource::fail(TimePoint now, sources::ObservationSink& sink, std::string reason) {
    // The next readable version is read whatever its stamp: it may be the one that was read
    // before the file went away.
    read_stamp_.reset();
    if (failure_ == reason) return;
    failure_ = reason;
    sink.emit(Observation{now, std::string(kSourceName), SourceStatus{false, std::move(reason)}});
}

void PartitionsConfSource::poll(TimePoint now, sources::ObservationSink& sink) {
    auto stamp = stamp_of(path_);
    if (!stamp) return fail(now, sink, "cannot read partitions.conf " + stamp.error().message);
    if (read_stamp_ == *stamp) return;
    // Read after the stamp was taken: a file rewritten while it is read has a newer stamp, and is
    // read again at the next poll.
    auto text = common::read_text_file(path_, kMaxConfBytes);
    if (!text) return fail(now, sink, "cannot read partitions.conf " + text.error().message);
    ++reads_;
    read_stamp_ = *stamp;
    sink.emit(Observation{now, std::string(kSourceName),
                          PartitionsConfText{path_, std::move(*text), sm_port_guid_}});
    if (failure_) {
        failure_.reset();
        sink.emit(Observation{now, std::string(kSourceName), SourceStatus{true, ""}});
    }
}

Result<std::unique_ptr<sources::Source>> make_partitions_conf_source(
    const sources::SourceSettings& settings) {
    auto conf = settings.options.text(kConfOption);
    if (!conf || conf->empty()) {
        return make_error("no partitions.conf given (--partitions.conf FILE)", EINVAL);
    }
    return std::unique_ptr<sources::Source>(std::make_unique<PartitionsConfSource>(
        *conf, settings.options.get<uint64_t>(kSmPortGuidOption), settings.pkey_interval));
}

sources::SourceEntry partitions_source_entry() {
    sources::SourceEntry e;
    e.name = std::string(kSourceName);
    e.description = "The SM's partitions.conf, to judge P_Key tables against (--partitions.conf)";
    // Switched on by --partitions.conf (or partitions: in the config file), which names the file.
    e.enabled_by_default = false;
    e.options = partitions_options();
    e.factory = make_partitions_conf_source;
    return e;
}

}  // namespace rdmadiag::partitions_conf
