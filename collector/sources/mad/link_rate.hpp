#pragma once
// A port's rate from PortInfo's LinkWidthActive, LinkSpeedActive and LinkSpeedExtActive, in the
// words the kernel's sysfs `rate` file uses ("100 Gb/sec (4X EDR)"), so ports read by MADs show
// the same Rate as ports read from sysfs.

#include <cstdint>
#include <optional>
#include <string>

namespace rdmadiag::mad {

// nullopt when a field holds no single known value (0, several bits, a speed without a name).
// `fdr10`: Mellanox's ExtendedPortInfo says the link PortInfo reports as QDR runs at FDR10
// ("40 Gb/sec (4X FDR10)", as the kernel prints it).
std::optional<std::string> link_rate_text(uint8_t width_active, uint8_t speed_active,
                                          uint8_t speed_ext_active, bool fdr10 = false);

}  // namespace rdmadiag::mad
