#include "collector/probe/probe_source.hpp"

#include <grp.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "collector/engine/default/default_engine.hpp"
#include "collector/probe/probe_options.hpp"
#include "tests/collector/probe/probe_test_support.hpp"
#include "tests/collector/probe/seqpacket_send.hpp"
#include "tests/support/source_options.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::probe {
namespace {

using test::Producer;
using test::pump;

class ProbeSourceTest : public ::testing::Test {
protected:
    void SetUp() override { settings.extra["probe.socket"] = dir + "/probe.sock"; }
    void TearDown() override { src.reset(); }
    ProbeSource& start(ProbeLimits limits = {}) {
        src = std::make_unique<ProbeSource>(
            ::rdmadiag::test::resolved(settings, "probe", probe_options()), limits);
        EXPECT_TRUE(src->availability().available) << src->availability().reason;
        return *src;
    }
    std::vector<MrEvent> events() const {
        std::vector<MrEvent> out;
        for (const auto& o : sink.observations) {
            if (auto* e = std::get_if<MrEvent>(&o.body)) out.push_back(*e);
        }
        return out;
    }
    std::string errors() const {
        std::string out;
        for (const auto& o : sink.observations) {
            if (auto* e = std::get_if<SampleError>(&o.body))
                out += e->subject + ": " + e->message + "\n";
        }
        return out;
    }

    test::TempDir tmp{"probe-source"};
    std::string dir = tmp.string();
    sources::SourceSettings settings;
    std::unique_ptr<ProbeSource> src;
    sources::VectorSink sink;
};

TEST_F(ProbeSourceTest, ListensWithGroupAccessAndSaysWhereIt) {
    ProbeSource& s = start();
    struct stat st {};
    ASSERT_EQ(stat(s.socket_path().c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0660u);
    EXPECT_NE(s.availability().reason.find(s.socket_path()), std::string::npos);
}

TEST_F(ProbeSourceTest, SocketModeAndGroupAreConfigurableButNeverOpenToOthers) {
    // Even with a permissive umask the socket is never more open than asked.
    mode_t old = umask(0);
    settings.extra["probe.socket_mode"] = "0640";
    settings.extra["probe.socket_group"] = "nogroup";
    ProbeSource& s = start();
    umask(old);
    struct stat st {};
    ASSERT_EQ(stat(s.socket_path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
    group* g = getgrnam("nogroup");
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(st.st_gid, g->gr_gid);
    src.reset();

    for (const char* bad : {"0666", "0777", "rw", "1777", ""}) {
        settings.extra["probe.socket_mode"] = bad;
        auto refused = sources::resolve_source_options("probe", probe_options(), settings);
        ASSERT_FALSE(refused.ok()) << bad;
        EXPECT_NE(refused.error().message.find("probe.socket_mode"), std::string::npos);
    }
    settings.extra["probe.socket_mode"] = "0660";
    settings.extra["probe.socket_group"] = "no-such-group-rdmadiag";
    ProbeSource no_group(::rdmadiag::test::resolved(settings, "probe", probe_options()));
    EXPECT_FALSE(no_group.availability().available);
    EXPECT_NE(no_group.availability().reason.find("no such group"), std::string::npos);
}

TEST_F(ProbeSourceTest, RefusesAPathThatIsNotASocket) {
    std::filesystem::create_directories(dir);
    { std::ofstream(dir + "/probe.sock") << "x"; }
    ProbeSource s(::rdmadiag::test::resolved(settings, "probe", probe_options()));
    EXPECT_FALSE(s.availability().available);
    EXPECT_NE(s.availability().reason.find("not a socket"), std::string::npos);
    sources::VectorSink out;
    s.poll(TimePoint{}, out);
    ASSERT_EQ(out.observations.size(), 1u);
    EXPECT_FALSE(std::get<SourceStatus>(out.observations[0].body).up);
}

TEST_F(ProbeSourceTest, NormalProducerTellsTheStoryAttributedBySoPeercred) {
    ProbeSource& s = start();
    Producer p({"normal", s.socket_path(), "hold"});
    p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return events().size() >= 5; })) << errors();
    auto engine = engine::make_default_engine();
    for (const auto& o : sink.observations) engine->consume(o);
    auto evs = events();
    ASSERT_EQ(evs.size(), 5u);
    EXPECT_EQ(evs[0].op, MrOp::reg);
    EXPECT_TRUE(evs[1].posted);
    EXPECT_EQ(evs[2].op, MrOp::local_inv);
    EXPECT_EQ(evs[2].status, WcStatus::wr_flush_err);
    EXPECT_EQ(evs[4].status, WcStatus::mw_bind_err);
    for (const auto& e : evs) {
        EXPECT_EQ(e.device, "rxe0");
        EXPECT_EQ(e.mr, 0x1234u);
        EXPECT_EQ(e.owner.pid, static_cast<uint32_t>(p.pid()));
        EXPECT_EQ(e.owner.name, "probe_producer");
    }
    FindingSubject subj;
    subj.device = "rxe0";
    subj.mr = 0x1234;
    const Finding* f = engine->findings().find("mr.needs_dereg", subj);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->advice.find("probe_producer (pid " + std::to_string(p.pid()) + ")"),
              std::string::npos);

    p.release();  // it deregisters and exits
    ASSERT_TRUE(pump(s, sink, [&] { return p.exited() && s.clients() == 0; }));
    EXPECT_TRUE(WIFEXITED(p.status()) && WEXITSTATUS(p.status()) == 0);
    auto all = events();
    ASSERT_EQ(all.size(), 6u);
    EXPECT_EQ(all[5].op, MrOp::dereg);
    engine->consume(sink.observations.back());
    EXPECT_EQ(engine->findings().find("mr.needs_dereg", subj), nullptr);
    EXPECT_EQ(s.stats().disconnected, 1u);
    EXPECT_EQ(s.stats().cut_off, 0u);
    EXPECT_EQ(s.stats().invalid_records, 0u);
}

// Between its slow drains the collector sleeps: ordinary reports wait in the ring for the next
// poll, while a failed completion, or a ring more than half full, rings the doorbell. That makes
// the source's descriptor readable, and reading it drains at once, with no poll.
TEST_F(ProbeSourceTest, FailuresAndHalfFullRingsRingTheDoorbellOrdinaryReportsWaitForThePoll) {
    using test::readable_now;
    ProbeSource& s = start();
    const int fd = s.event_fds().at(0);
    const TimePoint now = SystemClock().now();
    Producer p({"doorbell", s.socket_path()});
    p.read_until("ordinary");
    // Its connection, its ring and its device name are waiting: read, and nothing is drained.
    while (readable_now(fd)) s.on_readable(fd, now, sink);
    EXPECT_EQ(s.clients(), 1u);
    EXPECT_EQ(s.stats().rings, 1u);
    EXPECT_TRUE(events().empty());
    s.poll(now, sink);  // the slow drain: the registration, the FASTREG and its completion
    ASSERT_EQ(events().size(), 3u) << errors();

    p.next();
    p.read_until("quiet");
    EXPECT_FALSE(readable_now(fd));  // a LOCAL_INV and its successful completion: no doorbell
    EXPECT_EQ(events().size(), 3u);

    p.next();
    p.read_until("urgent");
    ASSERT_TRUE(readable_now(fd));  // the flushed completion rang
    s.on_readable(fd, now, sink);
    auto evs = events();
    ASSERT_EQ(evs.size(), 6u) << errors();
    EXPECT_EQ(evs[3].op, MrOp::local_inv);
    EXPECT_TRUE(evs[3].posted);
    EXPECT_EQ(evs[5].op, MrOp::local_inv);
    EXPECT_EQ(evs[5].status, WcStatus::wr_flush_err);
    EXPECT_EQ(s.stats().doorbells, 1u);
    EXPECT_FALSE(readable_now(fd));

    p.next();
    p.read_until("burst");
    ASSERT_TRUE(readable_now(fd));  // 3000 posts: the ring passed half full and rang once
    s.on_readable(fd, now, sink);
    EXPECT_EQ(events().size(), 3006u);
    EXPECT_EQ(s.stats().doorbells, 2u);

    p.release();
    ASSERT_TRUE(pump(s, sink, [&] { return p.exited() && s.clients() == 0; }));
    EXPECT_TRUE(WIFEXITED(p.status()) && WEXITSTATUS(p.status()) == 0);  // nothing dropped
    EXPECT_EQ(events().back().op, MrOp::dereg);
    EXPECT_EQ(s.stats().cut_off, 0u);
}

// What a client's doorbells can cost the collector is bounded: past its doorbells for the second
// its rings are not armed again, and its records wait for the poll.
TEST_F(ProbeSourceTest, DoorbellsBeyondTheBoundAreNotArmedAgain) {
    ProbeLimits limits;
    limits.max_doorbells = 1;
    ProbeSource& s = start(limits);
    const int fd = s.event_fds().at(0);
    const TimePoint now = SystemClock().now();
    Producer p({"doorbell", s.socket_path()});
    p.read_until("ordinary");
    while (test::readable_now(fd)) s.on_readable(fd, now, sink);
    s.poll(now, sink);
    p.next();
    p.read_until("quiet");
    p.next();
    p.read_until("urgent");
    ASSERT_TRUE(test::readable_now(fd));
    s.on_readable(fd, now, sink);  // drained, but its one doorbell is spent: not armed again
    EXPECT_EQ(events().size(), 6u);
    p.next();
    p.read_until("burst");
    EXPECT_FALSE(test::readable_now(fd));  // half full, yet no doorbell: the poll drains it
    EXPECT_EQ(events().size(), 6u);
    s.poll(now, sink);
    EXPECT_EQ(events().size(), 3006u);
    EXPECT_EQ(s.stats().doorbells, 1u);
    EXPECT_EQ(s.stats().cut_off, 0u);
    p.release();
}

TEST_F(ProbeSourceTest, ClientClaimingAnotherPidIsAttributedToItsOwn) {
    ProbeSource& s = start();
    // It claims to be this test process: a live pid with a different name.
    Producer p({"impostor", s.socket_path(), std::to_string(getpid()), "hold"});
    std::string said = p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return !events().empty(); })) << errors() << said;
    auto evs = events();
    ASSERT_EQ(evs.size(), 1u);
    EXPECT_EQ(evs[0].op, MrOp::reg);
    EXPECT_EQ(evs[0].mr, 0x77u);
    EXPECT_EQ(evs[0].owner.pid, static_cast<uint32_t>(p.pid()));
    EXPECT_NE(evs[0].owner.pid, static_cast<uint32_t>(getpid()));
    EXPECT_EQ(evs[0].owner.name, "probe_producer");
    EXPECT_EQ(s.stats().cut_off, 0u);
    p.release();
}

TEST_F(ProbeSourceTest, ProducerKilledMidStreamLosesNothingItPublished) {
    ProbeSource& s = start();
    Producer p({"crash", s.socket_path(), "1000"});
    p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return p.exited() && s.clients() == 0; })) << errors();
    EXPECT_TRUE(WIFSIGNALED(p.status()));
    std::vector<uint32_t> fastreg;
    for (const auto& e : events()) {
        if (e.op == MrOp::fastreg) fastreg.push_back(static_cast<uint32_t>(e.mr));
    }
    ASSERT_EQ(fastreg.size(), 1000u);
    for (uint32_t i = 0; i < 1000; ++i) EXPECT_EQ(fastreg[i], i);
    EXPECT_EQ(s.stats().invalid_records, 0u);
    EXPECT_EQ(s.stats().cut_off, 0u);
    EXPECT_EQ(s.stats().disconnected, 1u);
}

TEST_F(ProbeSourceTest, GarbageMessagesGetTheClientCutOff) {
    ProbeSource& s = start();
    Producer p({"garbage", s.socket_path()});
    p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return s.stats().cut_off == 1; }));
    EXPECT_EQ(s.clients(), 0u);
    EXPECT_NE(errors().find("disconnected: malformed message"), std::string::npos) << errors();
    EXPECT_TRUE(events().empty());
}

TEST_F(ProbeSourceTest, ScribbledRingIsReadSafelyAndCutOff) {
    ProbeSource& s = start();
    Producer p({"scribble", s.socket_path(), "hold"});
    p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return s.stats().cut_off == 1; }));
    EXPECT_NE(errors().find("invalid records"), std::string::npos) << errors();
    EXPECT_TRUE(events().empty());
}

TEST_F(ProbeSourceTest, RingThatLiesAboutItsHeadIsCutOff) {
    ProbeSource& s = start();
    Producer p({"liar", s.socket_path(), "hold"});
    p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return s.stats().cut_off == 1; }));
    EXPECT_NE(errors().find("more records than it holds"), std::string::npos) << errors();
}

TEST_F(ProbeSourceTest, UnsealedRingIsRefused) {
    ProbeSource& s = start();
    Producer p({"unsealed", s.socket_path(), "hold"});
    p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return s.stats().bad_messages == 1; }));
    EXPECT_EQ(s.stats().rings, 0u);
    EXPECT_EQ(s.clients(), 1u);  // one bad message is tolerated
    p.release();
    ASSERT_TRUE(pump(s, sink, [&] { return s.clients() == 0; }));
}

TEST_F(ProbeSourceTest, TooManyRingsGetTheClientCutOffWithBoundedMemory) {
    ProbeLimits limits;
    limits.max_rings_per_client = 8;
    ProbeSource& s = start(limits);
    Producer p({"rings", s.socket_path(), "20", "hold"});
    p.read_until("ready");
    ASSERT_TRUE(pump(s, sink, [&] { return s.stats().cut_off == 1; }));
    EXPECT_LE(s.stats().rings, 8u);
    EXPECT_NE(errors().find("more than 8 rings"), std::string::npos) << errors();
}

TEST_F(ProbeSourceTest, FloodingProducerIsBoundedPerPoll) {
    ProbeLimits limits;
    limits.max_records_per_poll = 1000;
    ProbeSource& s = start(limits);
    Producer p({"flood", s.socket_path(), "200000", "hold"});
    std::string out = p.read_until("ready");
    ASSERT_TRUE(
        pump(s, sink, [&] { return s.stats().throttled > 0 || s.stats().records >= 8192; }));
    // Each poll hands over at most the bound; the rest waits in the client's own rings.
    size_t before = events().size();
    sources::VectorSink one;
    s.poll(SystemClock().now(), one);
    EXPECT_LE(one.observations.size(), 1000u);
    EXPECT_EQ(s.stats().invalid_records, 0u);
    EXPECT_EQ(s.stats().cut_off, 0u);
    EXPECT_GT(before, 0u);
    p.release();
    ASSERT_TRUE(pump(s, sink, [&] { return s.clients() == 0; }));
}

TEST_F(ProbeSourceTest, ClientsBeyondTheLimitAreRefused) {
    ProbeLimits limits;
    limits.max_clients = 2;
    ProbeSource& s = start(limits);
    std::vector<int> socks;
    for (int i = 0; i < 4; ++i) {
        int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        std::strncpy(a.sun_path, s.socket_path().c_str(), sizeof a.sun_path - 1);
        ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
        socks.push_back(fd);
    }
    ASSERT_TRUE(pump(s, sink, [&] { return s.stats().accepted + s.stats().refused == 4; }));
    EXPECT_EQ(s.clients(), 2u);
    EXPECT_EQ(s.stats().refused, 2u);
    for (int fd : socks) close(fd);
}

size_t open_descriptors() {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
    return n;
}

// A zero-length SEQPACKET message reads like the end of the stream, but it can carry
// descriptors: probe_messages_fuzz ran the collector out of them (EMFILE) with such messages.
TEST_F(ProbeSourceTest, AZeroLengthMessageWithDescriptorsLeaksNone) {
    ProbeSource& s = start();
    const size_t before = open_descriptors();
    int client = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    ASSERT_GE(client, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, s.socket_path().c_str(), sizeof addr.sun_path - 1);
    ASSERT_EQ(::connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_TRUE(pump(s, sink, [&] { return s.clients() == 1; }));
    for (int i = 0; i < 2; ++i) {
        int fd = memfd_create("probe-test", MFD_CLOEXEC);
        ASSERT_GE(fd, 0);
        const char none = 0;
        const bool sent = test::send_with_fd(client, &none, 0, fd);
        ::close(fd);
        if (!sent) break;  // the collector has let the client go already
    }
    ASSERT_TRUE(pump(s, sink, [&] { return s.clients() == 0; }));
    ::close(client);
    EXPECT_EQ(open_descriptors(), before);
}

}  // namespace
}  // namespace rdmadiag::probe
