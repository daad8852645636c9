#pragma once
// One quantity that a port shows in two files. mlx4 ports (MLNX_OFED's driver, kernels before
// 4.5) keep PortCountersExtended's 64-bit data and packet counters in counters_ext/ beside the
// counters/ files of the same quantities, and on real ports either file can stay at 0 while the
// other counts (node_exporter's public fixture: port 1's counters_ext packet files read 0 beside
// 6.8 billion in counters/, port 2's counters/ data files read 0 beside counters_ext's). No rule
// that picks a file by name is right on both; the value of the pair is:
//   - at the first reading, the larger of the two;
//   - after that, the larger of the two whenever it is not below what was reported (a file that
//     starts counting again catches up with the other, and is not added on top of it);
//   - otherwise (the live file went back: a reset of the port's counters) what was reported plus
//     the larger of the two files' rises since the last reading, a file that went back counting
//     from 0.
// So the reported total never goes backwards and is never below either file's value.

#include <cstdint>
#include <optional>

namespace rdmadiag::sysfs {

class TwinCounter {
public:
    // This reading of the two files (nullopt: not read, or not available); the value to report,
    // nullopt when neither file had one.
    std::optional<uint64_t> update(std::optional<uint64_t> base, std::optional<uint64_t> ext);

private:
    std::optional<uint64_t> base_;
    std::optional<uint64_t> ext_;
    std::optional<uint64_t> total_;
};

}  // namespace rdmadiag::sysfs
