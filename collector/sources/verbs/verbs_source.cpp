#include "collector/sources/verbs/verbs_source.hpp"

#include "collector/sources/verbs/ibverbs_backend.hpp"
#include "collector/sources/verbs/verbs_event_source.hpp"

namespace rdmadiag {

Result<std::unique_ptr<Source>> make_verbs_source(const SourceSettings& settings) {
    auto interval = verbs_rescan_interval(settings);
    if (!interval) return interval.error();
    return std::unique_ptr<Source>(std::make_unique<VerbsEventSource>(
        make_ibverbs_backend(), settings, interval.value(), SystemClock().now()));
}

}  // namespace rdmadiag
