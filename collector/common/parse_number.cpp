#include "collector/common/parse_number.hpp"

namespace rdmadiag::common {

bool take_hex_prefix(std::string_view& text) {
    if (!text.starts_with("0x") && !text.starts_with("0X")) return false;
    text.remove_prefix(2);
    return true;
}

std::optional<uint64_t> parse_c_number(std::string_view text) {
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    } else if (text.size() > 1 && text[0] == '0') {
        base = 8;
        text.remove_prefix(1);
    }
    return parse_number<uint64_t>(text, base);
}

}  // namespace rdmadiag::common
