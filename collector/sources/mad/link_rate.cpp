#include "collector/sources/mad/link_rate.hpp"

namespace rdmadiag::mad {

namespace {

struct Speed {
    unsigned deci_gbps_per_lane;  // the kernel's table: FDR counts as 14, HDR as 50
    const char* name;
};

// LinkWidthActive is one bit: 1X, 4X, 8X, 12X, 2X.
std::optional<unsigned> lanes(uint8_t width) {
    switch (width) {
        case 1:
            return 1;
        case 2:
            return 4;
        case 4:
            return 8;
        case 8:
            return 12;
        case 16:
            return 2;
        default:
            return std::nullopt;
    }
}

// LinkSpeedExtActive, when set, overrides LinkSpeedActive (FDR and later).
std::optional<Speed> speed_of(uint8_t speed, uint8_t ext) {
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
            return Speed{100, "QDR"};
        default:
            return std::nullopt;
    }
}

}  // namespace

std::optional<std::string> link_rate_text(uint8_t width_active, uint8_t speed_active,
                                          uint8_t speed_ext_active) {
    auto n = lanes(width_active);
    auto s = speed_of(speed_active, speed_ext_active);
    if (!n || !s) return std::nullopt;
    const unsigned deci = s->deci_gbps_per_lane * *n;
    std::string text = std::to_string(deci / 10);
    if (deci % 10 != 0) text += ".5";
    return text + " Gb/sec (" + std::to_string(*n) + "X " + s->name + ")";
}

}  // namespace rdmadiag::mad
