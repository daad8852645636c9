// An SRP host's sysfs files (local_ib_device, local_ib_port, pkey, sgid, dgid), as ib_srp prints
// them or as a corrupted read leaves them: the input is the five files' texts separated by NUL
// bytes, an empty or missing one absent (as a file that cannot be read). Whatever srp_consumer()
// accepts names a device and a port, and written back the way ib_srp prints it, parses to the same
// consumer.

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "collector/sources/consumers/srp_hosts.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;
using consumers::SrpHostFiles;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::vector<std::optional<std::string>> fields;
    size_t from = 0;
    while (fields.size() < 5) {
        const size_t nul = input.find('\0', from);
        fields.push_back(
            input.substr(from, nul == std::string::npos ? std::string::npos : nul - from));
        if (nul == std::string::npos) break;
        from = nul + 1;
    }
    fields.resize(5);
    for (auto& f : fields)
        if (f && f->empty()) f.reset();
    SrpHostFiles files{"host7", fields[0], fields[1], fields[2], fields[3], fields[4]};
    (void)consumers::is_srp_host(files);
    auto c = consumers::srp_consumer(files);
    if (!c) return 0;
    FUZZ_CHECK(!c->device.empty() && c->port > 0);
    FUZZ_CHECK(c->kind == ConsumerKind::srp && c->name == "host7");
    char port[16];
    std::snprintf(port, sizeof port, "%u\n", c->port);
    SrpHostFiles again{"host7",      c->device + "\n", std::string(port),
                       std::nullopt, std::nullopt,     std::nullopt};
    if (c->pkey) again.pkey = format_pkey(*c->pkey) + "\n";
    if (c->gid) again.sgid = c->gid->to_string() + "\n";
    if (!c->address.empty()) again.dgid = c->address + "\n";
    auto back = consumers::srp_consumer(again);
    FUZZ_CHECK(back && *back == *c);
    return 0;
}
