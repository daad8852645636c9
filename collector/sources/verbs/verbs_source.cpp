#include "collector/sources/verbs/verbs_source.hpp"

#include "collector/sources/verbs/ibverbs_backend.hpp"
#include "collector/sources/verbs/verbs_event_source.hpp"

namespace rdmadiag {

namespace {

// What the source says when it is asked to read another machine's tree: libibverbs only reads
// the live /sys, so it has nothing that belongs to that tree.
class VerbsNotForThisTree final : public Source {
public:
    explicit VerbsNotForThisTree(std::string root) : root_(std::move(root)) {}
    std::string_view name() const override { return VerbsEventSource::kName; }
    Availability availability() const override {
        return Availability{false, "verbs devices are live only: not read with sysfs root " + root_};
    }

private:
    std::string root_;
};

}  // namespace

Result<std::unique_ptr<Source>> make_verbs_source(const SourceSettings& settings) {
    auto interval = verbs_rescan_interval(settings);
    if (!interval) return interval.error();
    if (settings.sysfs_root != "/sys" && settings.sysfs_root != "/sys/") {
        return std::unique_ptr<Source>(std::make_unique<VerbsNotForThisTree>(settings.sysfs_root));
    }
    return std::unique_ptr<Source>(std::make_unique<VerbsEventSource>(
        make_ibverbs_backend(), settings, interval.value(), SystemClock().now()));
}

}  // namespace rdmadiag
