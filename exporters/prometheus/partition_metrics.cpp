// Partitions as counts: member ports per P_Key, view and membership, and, against the SM's
// intent, the member ports that differ from it. Nothing here is per port: a fabric has a few dozen
// partitions whatever its size; the members themselves are in /api/v1/partitions.
#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

void add_partition_metrics(const Snapshot& snap, MetricWriter& out) {
    if (!snap.partitions) return;
    const PartitionModel& model = *snap.partitions;
    // Every partition has a series in every view some port was read in (and in the intent, when
    // there is one), 0 where it has no member there: a partition that loses its last member in a
    // view reads 0 instead of going absent.
    unsigned views = 0;
    for (const EndPort& p : model.ports) views |= p.views_read;
    if (model.intent) views |= 1u << static_cast<unsigned>(MemberView::intent);
    // In the order of Partition::counts.
    constexpr std::string_view kMemberships[3] = {"limited", "full", "both"};
    out.begin("rdmadiag_partition_members",
              "End ports that are members of the partition (P_Key base) in a view: limited, full, "
              "or both (a full and a limited entry).",
              MetricType::gauge);
    for (const Partition& p : model.partitions) {
        const std::string pkey = format_pkey(p.pkey);
        for (MemberView v : kAllMemberViews) {
            if (((views >> static_cast<unsigned>(v)) & 1u) == 0) continue;
            const auto& counts = p.counts[static_cast<size_t>(v)];
            for (size_t m = 0; m < 3; ++m) {
                out.sample(
                    {{"pkey", pkey}, {"view", to_string(v)}, {"membership", kMemberships[m]}},
                    counts[m]);
            }
        }
    }
    if (!model.intent) return;
    out.begin("rdmadiag_partition_differing_members",
              "Member ports whose table does not hold the partition as partitions.conf says "
              "(missing, unexpected or the other membership), in each partition judged.",
              MetricType::gauge);
    for (const Partition& p : model.partitions) {
        if (model.judged(p))
            out.sample({{"pkey", format_pkey(p.pkey)}}, static_cast<double>(differences(model, p)));
    }
    size_t skipped = 0;
    for (const auto& issue : model.intent->issues) skipped += issue.skipped;
    out.single("rdmadiag_partition_intent_skipped",
               "Statements, lines or ports of partitions.conf that could not be read and were left "
               "out (the API lists them with their line numbers).",
               MetricType::gauge, {}, static_cast<double>(skipped));
    out.single("rdmadiag_partition_intent_unresolved",
               "Entries of partitions.conf that name nothing the collector sees: a GUID no port "
               "has, SELF without the SM's port, a partition whose key the SM generates.",
               MetricType::gauge, {}, static_cast<double>(model.unresolved.size()));
}

}  // namespace rdmadiag::prom
