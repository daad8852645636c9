#include "collector/sources/mad/link_rate.hpp"

#include "collector/model/rdma_enums.hpp"

namespace rdmadiag::mad {

namespace {

struct Speed {
    unsigned deci_gbps_per_lane;  // the kernel's table: FDR counts as 14, HDR as 50
    const char* name;
};

// LinkSpeedExtActive, when set, overrides LinkSpeedActive (FDR and later).
std::optional<Speed> speed_of(uint8_t speed, uint8_t ext, bool fdr10) {
    switch (ext) {
        case 0:
            break;
        case 1:
            return Speed{140, "FDR"};
        case 2:
            return Speed{250, "EDR"};
        case 4:
            return Speed{500, "HDR"};
        case 8:
            return Speed{1000, "NDR"};
        default:
            return std::nullopt;
    }
    switch (speed) {
        case 1:
            return Speed{25, "SDR"};
        case 2:
            return Speed{50, "DDR"};
        case 4:
            return fdr10 ? Speed{100, "FDR10"} : Speed{100, "QDR"};
        default:
            return std::nullopt;
    }
}

}  // namespace

std::optional<std::string> link_rate_text(uint8_t width_active, uint8_t speed_active,
                                          uint8_t speed_ext_active, bool fdr10) {
    const unsigned n = link_width_lanes(width_active);
    auto s = speed_of(speed_active, speed_ext_active, fdr10);
    if (n == 0 || !s) return std::nullopt;
    const unsigned deci = s->deci_gbps_per_lane * n;
    std::string text = std::to_string(deci / 10);
    if (deci % 10 != 0) text += ".5";
    return text + " Gb/sec (" + std::to_string(n) + "X " + s->name + ")";
}

}  // namespace rdmadiag::mad
