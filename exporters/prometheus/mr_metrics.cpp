// Memory regions counted by device and state; individual MRs live in /api/v1/mrs. Who holds them
// (RDMA netlink): the top processes by MR count and one "other" series, so a host's series stay
// bounded whatever runs on it; per device the MRs held against max_mr.
#include <map>

#include "exporters/prometheus/snapshot_metrics.hpp"

namespace rdmadiag::prom {

namespace {

void add_usage_metrics(const MrUsage& u, MetricWriter& out) {
    if (u.processes.empty() && u.devices.empty()) return;
    auto pid_label = [](const MrProcessUsage& p) {
        if (p.owner_gone) return std::string("exited");
        return p.pid ? std::to_string(*p.pid) : std::string("kernel");
    };
    out.begin("rdmadiag_mr_process_mrs",
              "MRs a process holds (RDMA netlink), the top processes and pid=\"other\" for the "
              "rest; pid=\"kernel\" for kernel users, \"exited\" for MRs whose process is gone.",
              MetricType::gauge);
    for (const auto& p : u.processes) {
        out.sample({{"pid", pid_label(p)}, {"comm", p.comm}}, static_cast<double>(p.mrs));
    }
    out.sample({{"pid", "other"}, {"comm", ""}}, static_cast<double>(u.other_mrs));
    out.begin(
        "rdmadiag_mr_process_registered_bytes",
        "Bytes a process has registered (RDMA netlink MR lengths), as rdmadiag_mr_process_mrs.",
        MetricType::gauge);
    for (const auto& p : u.processes) {
        out.sample({{"pid", pid_label(p)}, {"comm", p.comm}}, static_cast<double>(p.bytes));
    }
    out.sample({{"pid", "other"}, {"comm", ""}}, static_cast<double>(u.other_bytes));
    out.begin("rdmadiag_mr_device_mrs", "MRs a device holds now (its last complete listing).",
              MetricType::gauge);
    for (const auto& d : u.devices) out.sample({{"device", d.device}}, static_cast<double>(d.mrs));
    out.begin("rdmadiag_mr_device_max_mrs",
              "The most MRs the device allows (ibv_device_attr.max_mr); absent when not read.",
              MetricType::gauge);
    for (const auto& d : u.devices) {
        if (d.max_mr) out.sample({{"device", d.device}}, static_cast<double>(*d.max_mr));
    }
    out.begin("rdmadiag_mr_owner_gone_mrs",
              "MRs listed without a live process (their owner exited, the verbs file lives on).",
              MetricType::gauge);
    for (const auto& d : u.devices) {
        out.sample({{"device", d.device}}, static_cast<double>(d.owner_gone_mrs));
    }
}

}  // namespace

void add_mr_metrics(const Snapshot& snap, MetricWriter& out) {
    constexpr MrState kStates[] = {MrState::valid,   MrState::invalid,
                                   MrState::unknown, MrState::awaiting_teardown,
                                   MrState::stuck,   MrState::deregistered};
    std::map<std::string_view, std::map<MrState, uint64_t>> by_device;
    for (const auto& mr : snap.mrs.mrs) ++by_device[mr.device][mr.state];
    out.begin("rdmadiag_mrs", "Memory regions tracked, by device and state.", MetricType::gauge);
    for (auto& [device, states] : by_device) {
        for (MrState s : kStates) {
            out.sample({{"device", device}, {"state", to_string(s)}},
                       static_cast<double>(states[s]));
        }
    }
    const MrKernelBehaviour& k = snap.mrs.kernel;
    if (!k.basis.empty()) {
        out.begin("rdmadiag_mr_kernel_info",
                  "What the kernel does with flushed xprtrdma MRs (recovered, destroyed, "
                  "not_known) and its release; always 1.",
                  MetricType::gauge);
        out.sample({{"flushed_mrs", to_string(k.flushed_mrs)}, {"kernel", k.kernel}}, 1.0);
    }
    add_usage_metrics(snap.mrs.usage, out);
}

}  // namespace rdmadiag::prom
