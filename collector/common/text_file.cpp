#include "collector/common/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace rdmadiag::common {

Result<std::string> read_text_file(const std::string& path, size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        int e = errno;
        return make_error(path + ": " + std::strerror(e), e);
    }
    std::string out;
    char buf[4096];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        out.append(buf, static_cast<size_t>(in.gcount()));
        if (out.size() > max_bytes) return make_error(path + ": file is too large");
    }
    return out;
}

}  // namespace rdmadiag::common
