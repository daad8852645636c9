#include "collector/sources/verbs/verbs_source.hpp"

#include "collector/sources/verbs/ibverbs_backend.hpp"
#include "collector/sources/verbs/verbs_event_source.hpp"

namespace rdmadiag::verbs {

Result<std::unique_ptr<sources::Source>> make_verbs_source(
    const sources::SourceSettings& settings) {
    // libibverbs reads the live /sys only: it has nothing that belongs to another tree.
    if (settings.sysfs_root != "/sys" && settings.sysfs_root != "/sys/") {
        return make_error("verbs devices are live only: not read with sysfs root " +
                          settings.sysfs_root);
    }
    return std::unique_ptr<sources::Source>(std::make_unique<VerbsEventSource>(
        make_ibverbs_backend(), settings, verbs_rescan_interval(settings), SystemClock().now()));
}

}  // namespace rdmadiag::verbs
