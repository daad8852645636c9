#pragma once
// Helpers for test programs that run inside the soft-RoCE VM (tests/beds/vm/rxe-vm): whether we
// are in it, and running the guest's shell commands (ip, rdma) in the foreground or background.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace rdmadiag::vm {

// The bed exports RDMADIAG_VM_WORK to the command it runs. Outside the VM these tests must not
// touch the machine's links.
inline bool in_rxe_vm() {
    return std::getenv("RDMADIAG_VM_WORK") != nullptr;
}

inline constexpr const char* kNotInVm =
    "runs only inside the soft-RoCE VM (tests/beds/vm/rxe-vm runs it there)";

// Starts `sh -c command`; returns its pid.
inline pid_t spawn(const std::string& command) {
    const pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

// Exit code of a spawned command, or -1.
inline int wait_for(pid_t pid) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

inline bool exited(pid_t pid, int& code) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) != pid) return false;
    code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return true;
}

inline int run(const std::string& command) {
    return wait_for(spawn(command));
}

}  // namespace rdmadiag::vm
