#include "collector/probe/probe_socket.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "collector/probe/probe_options.hpp"
#include "tests/collector/probe/probe_test_support.hpp"
#include "tests/support/source_options.hpp"
#include "tests/support/temp_dir.hpp"

namespace rdmadiag::probe {
namespace {

class ProbeSocketTest : public ::testing::Test {
protected:
    test::TempDir tmp{"probe-socket"};
    std::string dir = tmp.string();
    std::string path = dir + "/sub/probe.sock";
};

TEST(ProbeSocketAccessSettings, ModeAndGroupAreReadButOthersNeverWrite) {
    sources::SourceSettings s;
    auto defaults = socket_access(s);
    ASSERT_TRUE(defaults);
    EXPECT_EQ(defaults->mode, 0660u);
    EXPECT_FALSE(defaults->gid.has_value());

    s.extra["probe.socket_mode"] = "0600";
    s.extra["probe.socket_group"] = "root";
    auto set = socket_access(::rdmadiag::test::resolved(s, "probe", probe_options()));
    ASSERT_TRUE(set) << set.error().message;
    EXPECT_EQ(set->mode, 0600u);
    EXPECT_EQ(set->gid, gid_t{0});

    // A mode or group the source would refuse is refused when the options are resolved.
    s.extra.erase("probe.socket_group");
    s.extra["probe.socket_mode"] = "0662";
    auto open_to_others = sources::resolve_source_options("probe", probe_options(), s);
    ASSERT_FALSE(open_to_others);
    EXPECT_EQ(open_to_others.error().message,
              "probe source: probe.socket_mode: others may not write (connect)");
    s.extra["probe.socket_mode"] = "0x1";
    auto garbage = sources::resolve_source_options("probe", probe_options(), s);
    ASSERT_FALSE(garbage);
    EXPECT_EQ(garbage.error().message,
              "probe source: probe.socket_mode must be an octal number up to 0777, not '0x1'");
}

TEST_F(ProbeSocketTest, ClaimingMakesTheFolderAndReplacesAStaleSocket) {
    ASSERT_TRUE(claim_socket_path(path));
    EXPECT_TRUE(std::filesystem::is_directory(dir + "/sub"));
    {
        auto first = ProbeListenSocket::listen(path, ProbeSocketAccess{});
        ASSERT_TRUE(first) << first.error().message;
        auto live = claim_socket_path(path);
        ASSERT_FALSE(live);
        EXPECT_EQ(live.error().message, "another collector is listening at " + path);
    }
    EXPECT_FALSE(std::filesystem::exists(path)) << "a closed listener removes its path";

    // A socket node nobody listens at, as a crashed collector leaves it.
    int stale = ::socket(AF_UNIX, SOCK_SEQPACKET, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    ASSERT_EQ(::bind(stale, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ::close(stale);
    ASSERT_TRUE(std::filesystem::exists(path));
    EXPECT_TRUE(claim_socket_path(path));
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST_F(ProbeSocketTest, ClaimingRefusesWhatIsNotASocketAndPathsTooLong) {
    std::filesystem::create_directories(dir + "/sub");
    { std::ofstream(path) << "x"; }
    auto file = claim_socket_path(path);
    ASSERT_FALSE(file);
    EXPECT_EQ(file.error().message, path + " exists and is not a socket");
    EXPECT_TRUE(std::filesystem::exists(path)) << "what is not ours is left alone";

    const std::string long_path = dir + "/" + std::string(sizeof sockaddr_un{}.sun_path, 'x');
    auto too_long = claim_socket_path(long_path);
    ASSERT_FALSE(too_long);
    EXPECT_EQ(too_long.error().message, "probe socket path too long: " + long_path);
}

TEST_F(ProbeSocketTest, AListenerTakesTheModeItIsGivenAndAcceptsWithCredentials) {
    ASSERT_TRUE(claim_socket_path(path));
    auto listener = ProbeListenSocket::listen(path, ProbeSocketAccess{0640, std::nullopt});
    ASSERT_TRUE(listener) << listener.error().message;
    struct stat st {};
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
    EXPECT_LT(listener->accept(), 0) << "nobody is waiting";

    int client = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    ASSERT_EQ(::connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    int server = listener->accept();
    ASSERT_GE(server, 0);
    auto peer = peer_credentials(server);
    ASSERT_TRUE(peer) << peer.error().message;
    EXPECT_EQ(peer->pid, static_cast<uint32_t>(getpid()));
    EXPECT_EQ(peer->uid, static_cast<uint32_t>(getuid()));
    ::close(server);
    ::close(client);
}

TEST_F(ProbeSocketTest, AListenerThatCannotBindSaysWhere) {
    // No folder: claim_socket_path was not called.
    auto listener = ProbeListenSocket::listen(path, ProbeSocketAccess{});
    ASSERT_FALSE(listener);
    EXPECT_EQ(listener.error().message.rfind("cannot listen at " + path + ": ", 0), 0u)
        << listener.error().message;
}

TEST(ProbePeerCredentials, ANonSocketHasNone) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    EXPECT_FALSE(peer_credentials(fds[0]));
    ::close(fds[0]);
    ::close(fds[1]);
}

}  // namespace
}  // namespace rdmadiag::probe
