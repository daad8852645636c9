#include "collector/engine/mr/mr_usage_tracker.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace rdmadiag::engine::mr {

namespace {

constexpr int64_t kKernelUser = -1;
constexpr int64_t kExited = -2;

std::string holder_text(int64_t pid, const std::string& comm) {
    if (pid == kExited) return "exited processes";
    if (pid == kKernelUser) return "kernel " + (comm.empty() ? std::string("user") : comm);
    if (comm.empty()) return "pid " + std::to_string(pid);
    return comm + " (pid " + std::to_string(pid) + ")";
}

std::string mib_text(int64_t bytes) {
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%+.1f MiB", mib);
    return buf;
}

// The last sample taken at or before `t`.
template <class History>
const auto* sample_at(const History& h, TimePoint t) {
    const typename History::value_type* found = nullptr;
    for (const auto& s : h) {
        if (s.time > t) break;
        found = &s;
    }
    return found;
}

}  // namespace

MrUsageTracker::MrUsageTracker(MrUsageSettings settings) : settings_(settings) {}

void MrUsageTracker::observe(const Observation& obs, EngineContext& ctx) {
    if (const auto* inv = std::get_if<MrInventory>(&obs.body)) {
        on_inventory(*inv, obs.time, ctx);
    } else if (const auto* lim = std::get_if<DeviceLimits>(&obs.body)) {
        Device& d = devices_[lim->device];
        if (d.max_mr != lim->max_mr) {
            d.max_mr = lim->max_mr;
            ++revision_;
            judge_device(lim->device, d, obs.time, ctx);
        }
    }
}

void MrUsageTracker::on_inventory(const MrInventory& inv, TimePoint t, EngineContext& ctx) {
    // The host-wide listing repeats the per-device ones; an incomplete one would undercount.
    if (inv.device.empty() || !inv.complete) return;
    Device& d = devices_[inv.device];
    d.holders.clear();
    d.mrs = d.bytes = d.gone_mrs = 0;
    for (const auto& e : inv.mrs) {
        HolderKey key = e.owner_gone ? HolderKey{kExited, ""}
                        : e.pid      ? HolderKey{*e.pid, e.comm}
                                     : HolderKey{kKernelUser, e.comm};
        Held& h = d.holders[key];
        ++h.mrs;
        h.bytes += e.length.value_or(0);
        ++d.mrs;
        d.bytes += e.length.value_or(0);
        if (e.owner_gone) ++d.gone_mrs;
    }
    ++revision_;
    update_processes(t, ctx);
    judge_device(inv.device, d, t, ctx);
}

void MrUsageTracker::update_processes(TimePoint t, EngineContext& ctx) {
    std::map<HolderKey, Process> totals;
    for (const auto& [name, d] : devices_) {
        for (const auto& [key, h] : d.holders) {
            Process& p = totals[key];
            p.mrs += h.mrs;
            p.bytes += h.bytes;
            p.devices.push_back(name);
        }
    }
    const Duration spacing = settings_.leak_window / 16;
    for (auto it = processes_.begin(); it != processes_.end();) {
        if (totals.count(it->first)) {
            ++it;
            continue;
        }
        // Its MRs are gone from every device: the process deregistered them or ended.
        if (it->second.leak) {
            FindingSubject s;
            s.pid = static_cast<uint32_t>(it->first.first);
            ctx.findings().clear(kRuleMrLeakSuspected, s, t);
        }
        it = processes_.erase(it);
    }
    unfollowed_ = 0;
    for (auto& [key, now] : totals) {
        auto it = processes_.find(key);
        if (it == processes_.end()) {
            if (processes_.size() >= settings_.max_processes) {
                ++unfollowed_;
                continue;
            }
            it = processes_.emplace(key, Process{}).first;
            it->second.first_seen = t;
        }
        Process& p = it->second;
        p.mrs = now.mrs;
        p.bytes = now.bytes;
        p.updated = t;
        p.devices = std::move(now.devices);
        if (p.history.empty() || t - p.history.back().time >= spacing)
            p.history.push_back(Sample{t, p.mrs, p.bytes});
        // Keep the last sample at or before the window's start and everything after it.
        const TimePoint start = t - settings_.leak_window;
        while (p.history.size() >= 2 && p.history[1].time <= start) p.history.pop_front();
        if (key.first >= 0) judge_leak(key, p, t, ctx);
    }
}

void MrUsageTracker::judge_leak(const HolderKey& key, Process& p, TimePoint t, EngineContext& ctx) {
    const Duration w = settings_.leak_window;
    const TimePoint start = t - w;
    const Sample* base = sample_at(p.history, start);
    FindingSubject subject;
    subject.pid = static_cast<uint32_t>(key.first);
    if (!base) return;  // followed for less than a window: nothing sustained to judge yet
    std::array<Sample, 5> at{};
    at[0] = *base;
    for (size_t k = 1; k < 4; ++k) at[k] = *sample_at(p.history, start + w * k / 4);
    at[4] = Sample{t, p.mrs, p.bytes};
    bool mrs_rising = at[4].mrs >= at[0].mrs + settings_.leak_min_mrs;
    bool bytes_rising = at[4].bytes >= at[0].bytes + settings_.leak_min_bytes;
    for (size_t k = 0; k < 4; ++k) {
        mrs_rising = mrs_rising && at[k + 1].mrs > at[k].mrs;
        bytes_rising = bytes_rising && at[k + 1].bytes > at[k].bytes;
    }
    const int64_t dm = static_cast<int64_t>(at[4].mrs) - static_cast<int64_t>(at[0].mrs);
    const int64_t db = static_cast<int64_t>(at[4].bytes) - static_cast<int64_t>(at[0].bytes);
    if (!p.leak && (mrs_rising || bytes_rising)) {
        p.leak = true;
        Finding f;
        f.rule = kRuleMrLeakSuspected;
        f.severity = Severity::warning;
        f.subject = subject;
        f.since = t;
        std::string devices;
        for (const auto& d : p.devices) devices += (devices.empty() ? "" : ", ") + d;
        f.evidence = holder_text(key.first, key.second) + " held " + std::to_string(at[0].mrs) +
                     " MRs at " + format_time(at[0].time) + " and holds " +
                     std::to_string(at[4].mrs) + " now (" + (dm >= 0 ? "+" : "") +
                     std::to_string(dm) + " MRs, " + mib_text(db) +
                     " registered), rising in each " + format_duration(w / 4) + " of the last " +
                     format_duration(w) + "; devices " + devices;
        f.advice =
            "if the program is not meant to hold more memory registrations as it runs, "
            "it registers without deregistering: check its ibv_dereg_mr paths (rdma "
            "resource show mr pid " +
            std::to_string(key.first) +
            " lists them); each MR pins memory and uses one of the device's max_mr";
        ctx.findings().raise(std::move(f));
        ++revision_;
    } else if (p.leak && dm <= 0 && db <= 0) {
        p.leak = false;
        ctx.findings().clear(kRuleMrLeakSuspected, subject, t);
        ++revision_;
    }
}

std::string MrUsageTracker::top_holders(const Device& d) const {
    std::vector<std::pair<uint64_t, HolderKey>> v;
    for (const auto& [key, h] : d.holders) v.emplace_back(h.mrs, key);
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string s;
    for (size_t i = 0; i < v.size() && i < 3; ++i) {
        s += (s.empty() ? "" : ", ") + holder_text(v[i].second.first, v[i].second.second) + " " +
             std::to_string(v[i].first);
    }
    return s;
}

void MrUsageTracker::judge_device(const std::string& name, Device& d, TimePoint t,
                                  EngineContext& ctx) {
    FindingSubject subject;
    subject.device = name;
    if (d.max_mr && *d.max_mr > 0) {
        const double share = static_cast<double>(d.mrs) / static_cast<double>(*d.max_mr);
        if (!d.exhaustion && share >= settings_.exhaustion_ratio) {
            d.exhaustion = true;
            Finding f;
            f.rule = kRuleMrExhaustionNear;
            f.severity = Severity::critical;
            f.subject = subject;
            f.since = t;
            f.evidence = name + " holds " + std::to_string(d.mrs) + " MRs of its max_mr " +
                         std::to_string(*d.max_mr) + " (" +
                         std::to_string(static_cast<int>(share * 100.0)) +
                         "%); largest holders: " + top_holders(d);
            f.advice = "new registrations on " + name +
                       " will fail (ibv_reg_mr ENOMEM/EAGAIN, 'Failed to register memory') once "
                       "max_mr is reached: stop or restart the largest holder, and look for MRs "
                       "whose owner is gone (mr.owner_gone)";
            ctx.findings().raise(std::move(f));
            ++revision_;
        } else if (d.exhaustion && share < settings_.exhaustion_clear_ratio) {
            d.exhaustion = false;
            ctx.findings().clear(kRuleMrExhaustionNear, subject, t);
            ++revision_;
        }
    } else if (d.exhaustion) {
        d.exhaustion = false;
        ctx.findings().clear(kRuleMrExhaustionNear, subject, t);
    }
    if (d.gone_mrs == 0) {
        d.gone_since.reset();
        if (d.gone_raised) {
            d.gone_raised = false;
            ctx.findings().clear(kRuleMrOwnerGone, subject, t);
            ++revision_;
        }
        return;
    }
    if (!d.gone_since) d.gone_since = t;
}

void MrUsageTracker::tick(EngineContext& ctx) {
    for (auto& [name, d] : devices_) {
        if (!d.gone_since || d.gone_raised) continue;
        if (ctx.now() < *d.gone_since + settings_.owner_gone_grace) continue;
        d.gone_raised = true;
        Finding f;
        f.rule = kRuleMrOwnerGone;
        f.severity = Severity::warning;
        f.subject.device = name;
        f.since = *d.gone_since;
        f.evidence = std::to_string(d.gone_mrs) + " MRs on " + name +
                     " are listed without a live process since " + format_time(*d.gone_since) +
                     " (RDMA netlink names no pid for them)";
        f.advice =
            "the process that registered them has exited but something still holds its "
            "verbs file: a child that inherited it across fork(), a descriptor passed to "
            "another process, or a kernel that did not finish cleaning up; find the holder "
            "with `ls -l /proc/*/fd | grep uverbs` and end it";
        ctx.findings().raise(std::move(f));
        ++revision_;
    }
}

void MrUsageTracker::contribute(Snapshot& snapshot) const {
    MrUsage& u = snapshot.mrs.usage;
    u = MrUsage{};
    std::vector<const std::pair<const HolderKey, Process>*> order;
    order.reserve(processes_.size());
    for (const auto& entry : processes_) order.push_back(&entry);
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
        if (a->second.mrs != b->second.mrs) return a->second.mrs > b->second.mrs;
        return a->first < b->first;
    });
    uint64_t total_mrs = 0;
    uint64_t total_bytes = 0;
    for (const auto& [name, d] : devices_) {
        total_mrs += d.mrs;
        total_bytes += d.bytes;
        if (d.holders.empty() && !d.max_mr) continue;
        MrDeviceUsage du;
        du.device = name;
        du.mrs = d.mrs;
        du.bytes = d.bytes;
        du.max_mr = d.max_mr;
        du.owner_gone_mrs = d.gone_mrs;
        du.exhaustion_near = d.exhaustion;
        u.devices.push_back(std::move(du));
    }
    uint64_t shown_mrs = 0;
    uint64_t shown_bytes = 0;
    for (size_t i = 0; i < order.size() && i < settings_.top_processes; ++i) {
        const auto& [key, p] = *order[i];
        MrProcessUsage pu;
        if (key.first >= 0) pu.pid = static_cast<uint32_t>(key.first);
        pu.comm = key.second;
        pu.mrs = p.mrs;
        pu.bytes = p.bytes;
        pu.devices = p.devices;
        pu.first_seen = p.first_seen;
        if (!p.history.empty()) {
            const Sample& from = p.history.front();
            pu.mrs_growth = static_cast<int64_t>(p.mrs) - static_cast<int64_t>(from.mrs);
            pu.bytes_growth = static_cast<int64_t>(p.bytes) - static_cast<int64_t>(from.bytes);
            pu.growth_over = p.updated - from.time;
        }
        pu.leak_suspected = p.leak;
        pu.owner_gone = key.first == kExited;
        shown_mrs += p.mrs;
        shown_bytes += p.bytes;
        u.processes.push_back(std::move(pu));
    }
    const uint64_t holders = order.size() + unfollowed_;
    u.other_processes = holders - u.processes.size();
    u.other_mrs = total_mrs - std::min(total_mrs, shown_mrs);
    u.other_bytes = total_bytes - std::min(total_bytes, shown_bytes);
}

}  // namespace rdmadiag::engine::mr
