#pragma once
// Sends one SOCK_SEQPACKET message, with a descriptor attached when `fd` >= 0, as a probe client
// does. Shared by the producer program and the in-process tests.

#include <sys/socket.h>

#include <cstddef>
#include <cstring>

namespace rdmadiag::test {

inline bool send_with_fd(int s, const void* data, size_t len, int fd) {
    iovec iov{const_cast<void*>(data), len};
    msghdr mh{};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    alignas(cmsghdr) char cbuf[CMSG_SPACE(sizeof(int))] = {};
    if (fd >= 0) {
        mh.msg_control = cbuf;
        mh.msg_controllen = sizeof cbuf;
        cmsghdr* c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    return sendmsg(s, &mh, MSG_NOSIGNAL) >= 0;
}

}  // namespace rdmadiag::test
