// Runs inside the soft-RoCE VM (tests/beds/vm/rxe-vm): a program that registers MRs on rxe0 in a
// loop and never deregisters them is flagged mr.leak_suspected from real RDMA netlink listings;
// its counts agree with `rdma resource show mr`; when it is killed its MRs leave the listing and
// nothing is reported as orphaned (mr.owner_gone) or leaking any more. Outside the VM every case
// skips.

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "collector/engine/default/default_engine.hpp"
#include "collector/engine/mr/mr_usage_tracker.hpp"
#include "collector/sources/netlink/netlink_source.hpp"
#include "tests/beds/vm/rxe_verbs.hpp"
#include "tests/beds/vm/vm_guest.hpp"

namespace rdmadiag::vm {
namespace {

using namespace std::chrono_literals;

constexpr uint32_t kMrsPerSecond = 20;

// The leaking program: registers one 4 KiB MR every 1/kMrsPerSecond s on rxe0 and keeps every
// one; SIGUSR1 makes it stop registering (and hold what it has). Reports through `ready` once
// its device is open. Never returns.
[[noreturn]] void leaker(int ready) {
    ::prctl(PR_SET_NAME, "leaker", 0, 0, 0);
    static volatile sig_atomic_t stop = 0;
    signal(SIGUSR1, [](int) { stop = 1; });
    Context ctx = open_rxe0();
    Pd pd(ctx ? ibv_alloc_pd(ctx.get()) : nullptr);
    const char ok = pd ? 1 : 0;
    (void)!::write(ready, &ok, 1);
    ::close(ready);
    if (!pd) _exit(1);
    std::vector<ibv_mr*> held;  // never deregistered: the leak
    for (;;) {
        if (!stop) {
            void* buf = std::aligned_alloc(4096, 4096);
            ibv_mr* mr =
                buf ? ibv_reg_mr(pd.get(), buf, 4096, int{IBV_ACCESS_LOCAL_WRITE}) : nullptr;
            if (mr) held.push_back(mr);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1000 / kMrsPerSecond));
    }
}

std::string shell_output(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (p == nullptr) return out;
    char buf[4096];
    size_t n = 0;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
    return out;
}

// MRs `rdma resource show mr` lists for this pid on rxe0.
size_t rdma_tool_count(pid_t pid) {
    const std::string text = shell_output("rdma resource show mr dev rxe0 2>&1");
    const std::string needle = "pid " + std::to_string(pid) + " ";
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        ++n;
    }
    return n;
}

class MrLeakInVm : public ::testing::Test {
protected:
    void SetUp() override {
        if (!in_rxe_vm()) GTEST_SKIP() << kNotInVm;
        engine::EngineSettings s;
        s.mr_usage.leak_window = 8s;
        s.mr_usage.leak_min_mrs = 40;
        s.mr_usage.owner_gone_grace = 5s;
        engine = engine::make_default_engine(s);
        sources::SourceSettings settings;
        netlink = std::make_unique<netlink::NetlinkSource>(settings);
    }
    void TearDown() override {
        if (child > 0) {
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
        }
    }

    // Polls netlink every 500 ms for `how_long`, feeding the engine on the wall clock.
    void run(Duration how_long) {
        const auto end = std::chrono::steady_clock::now() + how_long;
        while (std::chrono::steady_clock::now() < end) {
            sources::VectorSink sink;
            const TimePoint now =
                std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
            netlink->poll(now, sink);
            for (const auto& o : sink.observations) engine->consume(o);
            engine->advance(now);
            std::this_thread::sleep_for(500ms);
        }
    }
    const MrProcessUsage* usage_of(const Snapshot& snap, pid_t pid) const {
        for (const auto& p : snap.mrs.usage.processes) {
            if (p.pid && *p.pid == static_cast<uint32_t>(pid)) return &p;
        }
        return nullptr;
    }
    bool has(const Snapshot& snap, const char* rule) const {
        return std::any_of(snap.findings.begin(), snap.findings.end(),
                           [&](const Finding& f) { return f.rule == rule; });
    }

    std::unique_ptr<engine::Engine> engine;
    std::unique_ptr<netlink::NetlinkSource> netlink;
    pid_t child = -1;
};

TEST_F(MrLeakInVm, ALeakingProgramIsFlaggedAndLeavesNoFalseOrphanWhenKilled) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(fds[0]);
        leaker(fds[1]);
    }
    ::close(fds[1]);
    char ok = 0;
    ASSERT_EQ(::read(fds[0], &ok, 1), 1);
    ::close(fds[0]);
    ASSERT_EQ(ok, 1) << "the leaker could not open rxe0";

    // Two windows of steady registration: the leak is judged from real listings.
    run(12s);
    auto snap = engine->snapshot();
    ASSERT_TRUE(netlink->availability().available) << netlink->availability().reason;
    const MrProcessUsage* p = usage_of(*snap, child);
    ASSERT_NE(p, nullptr) << "the leaker's MRs are not in the listing";
    EXPECT_EQ(p->comm, "leaker");
    EXPECT_GE(p->mrs, 100u);
    EXPECT_EQ(p->bytes, p->mrs * 4096);
    EXPECT_TRUE(p->leak_suspected);
    EXPECT_TRUE(has(*snap, "mr.leak_suspected"));
    EXPECT_FALSE(has(*snap, "mr.owner_gone"));

    // Hold still, then count both ways at the same moment.
    ASSERT_EQ(::kill(child, SIGUSR1), 0);
    std::this_thread::sleep_for(300ms);
    run(1s);
    snap = engine->snapshot();
    p = usage_of(*snap, child);
    ASSERT_NE(p, nullptr);
    const size_t tool = rdma_tool_count(child);
    EXPECT_EQ(p->mrs, tool) << "rdma resource show mr lists " << tool;
    std::printf(
        "leaker (pid %d): %llu MRs, %llu bytes, +%lld over %.1f s; rdma resource show mr: "
        "%zu\n",
        static_cast<int>(child), static_cast<unsigned long long>(p->mrs),
        static_cast<unsigned long long>(p->bytes), static_cast<long long>(p->mrs_growth),
        to_seconds(p->growth_over), tool);
    const auto device = std::find_if(snap->mrs.usage.devices.begin(), snap->mrs.usage.devices.end(),
                                     [](const MrDeviceUsage& d) { return d.device == "rxe0"; });
    ASSERT_NE(device, snap->mrs.usage.devices.end());
    EXPECT_GE(device->mrs, p->mrs);

    // Killed: the kernel closes its verbs file and destroys the MRs.
    ASSERT_EQ(::kill(child, SIGKILL), 0);
    ASSERT_EQ(::waitpid(child, nullptr, 0), child);
    const pid_t gone = child;
    child = -1;
    run(8s);  // past the owner-gone grace
    snap = engine->snapshot();
    EXPECT_EQ(usage_of(*snap, gone), nullptr);
    EXPECT_EQ(rdma_tool_count(gone), 0u);
    EXPECT_FALSE(has(*snap, "mr.leak_suspected"));
    EXPECT_FALSE(has(*snap, "mr.owner_gone")) << "a killed program's MRs are not orphans";
    for (const auto& d : snap->mrs.usage.devices) EXPECT_EQ(d.owner_gone_mrs, 0u) << d.device;
}

}  // namespace
}  // namespace rdmadiag::vm
