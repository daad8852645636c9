#include "collector/probe/probe_protocol.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>

#include "tests/collector/probe/seqpacket_send.hpp"
#include "tests/collector/probe/test_ring.hpp"

namespace rdmadiag::probe {
namespace {

rdmadiag_probe_msg message(uint16_t type, uint32_t arg = 0, const char* name = "") {
    rdmadiag_probe_msg m{};
    m.magic = RDMADIAG_PROBE_MAGIC;
    m.version = RDMADIAG_PROBE_VERSION;
    m.type = type;
    m.arg = arg;
    std::strncpy(m.name, name, sizeof m.name - 1);
    return m;
}

ProbeMessage received(const rdmadiag_probe_msg& body, std::vector<int> fds = {}) {
    ProbeMessage m;
    m.length = sizeof body;
    m.body = body;
    m.fds = CarriedFds(std::move(fds));
    return m;
}

bool is_open(int fd) {
    return fcntl(fd, F_GETFD) != -1;
}

// A client that tolerates no bad message, so each one's reason is its cut-off reason.
ProbeLimits strict() {
    ProbeLimits l;
    l.max_bad_messages = 0;
    return l;
}

TEST(ProbeProtocol, ADeviceMessageNamesADevice) {
    ProbeClient c;
    MessageEffect e =
        apply_probe_message(c, received(message(RDMADIAG_MSG_DEVICE, 3, "mlx5_0")), ProbeLimits{});
    EXPECT_FALSE(e.bad);
    EXPECT_TRUE(e.cut_off.empty());
    EXPECT_EQ(c.devices.at(3), "mlx5_0");
    EXPECT_EQ(c.messages, 1u);
}

TEST(ProbeProtocol, EachKindOfBadMessageSaysWhatWasWrong) {
    struct Case {
        ProbeMessage m;
        std::string why;
    };
    ProbeMessage short_one = received(message(RDMADIAG_MSG_DEVICE, 0, "a"));
    short_one.length = 8;
    ProbeMessage truncated = received(message(RDMADIAG_MSG_DEVICE, 0, "a"));
    truncated.truncated = true;
    rdmadiag_probe_msg wrong_version = message(RDMADIAG_MSG_DEVICE, 0, "a");
    wrong_version.version = 2;
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    ::close(pipe_fds[1]);
    int doorbell_fds[2];
    ASSERT_EQ(::pipe(doorbell_fds), 0);
    ::close(doorbell_fds[1]);
    std::vector<Case> cases;
    cases.push_back({std::move(short_one), "malformed message"});
    cases.push_back({std::move(truncated), "malformed message"});
    cases.push_back({received(wrong_version), "malformed message"});
    cases.push_back({received(message(9)), "unknown message type"});
    cases.push_back({received(message(RDMADIAG_MSG_DEVICE, 16, "a")), "bad device message"});
    cases.push_back({received(message(RDMADIAG_MSG_DEVICE, 0, "a b")), "bad device message"});
    cases.push_back({received(message(RDMADIAG_MSG_DEVICE, 0, "")), "bad device message"});
    cases.push_back(
        {received(message(RDMADIAG_MSG_RING)), "ring message without exactly one descriptor"});
    cases.push_back(
        {received(message(RDMADIAG_MSG_DEVICE, 0, "a"), {pipe_fds[0]}), "bad device message"});
    cases.push_back({received(message(RDMADIAG_MSG_DOORBELL), {doorbell_fds[0]}),
                     "doorbell with a descriptor"});
    for (Case& k : cases) {
        ProbeClient c;
        MessageEffect e = apply_probe_message(c, k.m, strict());
        EXPECT_TRUE(e.bad) << k.why;
        EXPECT_EQ(e.cut_off, k.why);
        EXPECT_TRUE(c.devices.empty());
    }
}

TEST(ProbeProtocol, ADoorbellIsCountedAsTheClientsAndAsAMessage) {
    ProbeClient c;
    MessageEffect e =
        apply_probe_message(c, received(message(RDMADIAG_MSG_DOORBELL)), ProbeLimits{});
    EXPECT_TRUE(e.doorbell);
    EXPECT_FALSE(e.bad);
    EXPECT_EQ(c.doorbells, 1u);
    EXPECT_EQ(c.messages, 1u);  // a client ringing on and on is cut off like any chatty one
}

TEST(ProbeProtocol, BadMessagesAreToleratedUpToTheBound) {
    ProbeLimits limits;
    limits.max_bad_messages = 2;
    ProbeClient c;
    for (int i = 0; i < 2; ++i) {
        MessageEffect e = apply_probe_message(c, received(message(9)), limits);
        EXPECT_TRUE(e.bad);
        EXPECT_TRUE(e.cut_off.empty());
    }
    EXPECT_EQ(apply_probe_message(c, received(message(9)), limits).cut_off, "unknown message type");
}

TEST(ProbeProtocol, ARingIsMappedAndItsDescriptorClosedWithTheMessage) {
    test::TestRing ring(8);
    ProbeClient c;
    int fd = ::dup(ring.fd);
    {
        MessageEffect e =
            apply_probe_message(c, received(message(RDMADIAG_MSG_RING), {fd}), ProbeLimits{});
        EXPECT_TRUE(e.ring_added);
        EXPECT_FALSE(e.bad);
    }
    EXPECT_EQ(c.rings.size(), 1u);
    EXPECT_FALSE(is_open(fd)) << "the mapping outlives the descriptor";
}

TEST(ProbeProtocol, RingsOverTheBoundOrLyingCutTheClientOffUnsealedOnesAreRefused) {
    test::TestRing good(8), unsealed(8, false), lying(8);
    lying.hdr->head = 100;  // more unread records than the ring holds
    ProbeLimits limits = strict();
    limits.max_rings_per_client = 1;

    ProbeClient c;
    MessageEffect refused =
        apply_probe_message(c, received(message(RDMADIAG_MSG_RING), {::dup(unsealed.fd)}), limits);
    EXPECT_TRUE(refused.bad);
    EXPECT_EQ(refused.cut_off.rfind("ring refused: ", 0), 0u) << refused.cut_off;

    ProbeClient liar;
    MessageEffect lied =
        apply_probe_message(liar, received(message(RDMADIAG_MSG_RING), {::dup(lying.fd)}), limits);
    EXPECT_FALSE(lied.bad) << "hostile, not a mistake";
    EXPECT_EQ(lied.cut_off, "ring handed over with more records than it holds");

    ProbeClient greedy;
    EXPECT_TRUE(
        apply_probe_message(greedy, received(message(RDMADIAG_MSG_RING), {::dup(good.fd)}), limits)
            .ring_added);
    MessageEffect second =
        apply_probe_message(greedy, received(message(RDMADIAG_MSG_RING), {::dup(good.fd)}), limits);
    EXPECT_EQ(second.cut_off, "more than 1 rings");
    EXPECT_EQ(greedy.rings.size(), 1u);
}

TEST(ProbeProtocol, TooManyMessagesBetweenPollsCutTheClientOff) {
    ProbeLimits limits;
    limits.max_messages = 2;
    ProbeClient c;
    const auto device = message(RDMADIAG_MSG_DEVICE, 0, "a");
    EXPECT_TRUE(apply_probe_message(c, received(device), limits).cut_off.empty());
    EXPECT_TRUE(apply_probe_message(c, received(device), limits).cut_off.empty());
    EXPECT_EQ(apply_probe_message(c, received(device), limits).cut_off,
              "more than 2 messages between polls");
}

class ProbeSocketPair : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds), 0);
    }
    void TearDown() override {
        ::close(fds[0]);
        if (fds[1] >= 0) ::close(fds[1]);
    }
    void close_client() {
        ::close(fds[1]);
        fds[1] = -1;
    }
    int collector() const { return fds[0]; }
    int client() const { return fds[1]; }
    int fds[2] = {-1, -1};
};

TEST_F(ProbeSocketPair, ReceivingTakesTheBytesAndTheDescriptorsOfOneMessage) {
    auto none = receive_probe_message(collector());
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value());

    test::TestRing ring(8);
    const auto ring_msg = message(RDMADIAG_MSG_RING);
    ASSERT_TRUE(test::send_with_fd(client(), &ring_msg, sizeof ring_msg, ring.fd));
    int carried = -1;
    {
        auto got = receive_probe_message(collector());
        ASSERT_TRUE(got);
        ASSERT_TRUE(got->has_value());
        const ProbeMessage& m = **got;
        EXPECT_EQ(m.length, sizeof ring_msg);
        EXPECT_FALSE(m.truncated);
        EXPECT_EQ(m.body.type, RDMADIAG_MSG_RING);
        ASSERT_EQ(m.fds.size(), 1u);
        carried = m.fds[0];
        EXPECT_TRUE(is_open(carried));
    }
    EXPECT_FALSE(is_open(carried));

    char big[sizeof(rdmadiag_probe_msg) + 8] = {};
    ASSERT_TRUE(test::send_with_fd(client(), big, sizeof big, -1));
    auto too_big = receive_probe_message(collector());
    ASSERT_TRUE(too_big && too_big->has_value());
    EXPECT_TRUE((*too_big)->truncated);
}

TEST_F(ProbeSocketPair, AZeroLengthMessageReadsAsTheEndAndItsDescriptorsAreClosed) {
    test::TestRing ring(8);
    const char none = 0;
    ASSERT_TRUE(test::send_with_fd(client(), &none, 0, ring.fd));
    int carried = -1;
    {
        auto got = receive_probe_message(collector());
        ASSERT_TRUE(got && got->has_value());
        EXPECT_EQ((*got)->length, 0u);
        ASSERT_EQ((*got)->fds.size(), 1u);
        carried = (*got)->fds[0];
    }
    EXPECT_FALSE(is_open(carried));
}

TEST_F(ProbeSocketPair, ReadingAppliesEveryWaitingMessageUntilTheClientLeaves) {
    ProbeClient c;
    c.fd = collector();
    ProbeStats stats;
    const auto dev = message(RDMADIAG_MSG_DEVICE, 1, "rxe0");
    const auto bad = message(9);
    ASSERT_TRUE(test::send_with_fd(client(), &dev, sizeof dev, -1));
    ASSERT_TRUE(test::send_with_fd(client(), &bad, sizeof bad, -1));
    auto open = read_probe_messages(c, ProbeLimits{}, stats);
    ASSERT_TRUE(open);
    EXPECT_TRUE(*open);
    EXPECT_EQ(c.devices.at(1), "rxe0");
    EXPECT_EQ(stats.bad_messages, 1u);
    EXPECT_EQ(c.messages, 2u);

    close_client();
    auto gone = read_probe_messages(c, ProbeLimits{}, stats);
    ASSERT_TRUE(gone);
    EXPECT_FALSE(*gone);
}

TEST_F(ProbeSocketPair, ReadingStopsAtTheMessageThatCutsTheClientOff) {
    ProbeClient c;
    c.fd = collector();
    ProbeStats stats;
    const auto bad = message(9);
    const auto dev = message(RDMADIAG_MSG_DEVICE, 1, "rxe0");
    ASSERT_TRUE(test::send_with_fd(client(), &bad, sizeof bad, -1));
    ASSERT_TRUE(test::send_with_fd(client(), &dev, sizeof dev, -1));
    auto cut = read_probe_messages(c, strict(), stats);
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().message, "unknown message type");
    EXPECT_EQ(stats.bad_messages, 1u);
    EXPECT_TRUE(c.devices.empty()) << "nothing after it is read";
}

}  // namespace
}  // namespace rdmadiag::probe
