// partitions.conf as an administrator (or anything else) wrote it: whatever the bytes, the
// parser answers with partitions and issues, and what it answers is consistent.

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "collector/model/partitions_conf.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace rdmadiag;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text = rdmadiag::fuzz::as_text(data, size);
    const auto conf = parse_partitions_conf(text);
    const auto lines = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n') + 1);

    // One partition per P_Key, the default one always among them.
    std::set<uint16_t> keys;
    for (const auto& p : conf.partitions) {
        if (p.pkey) {
            FUZZ_CHECK(*p.pkey != 0 && *p.pkey < 0x8000);
            FUZZ_CHECK(keys.insert(*p.pkey).second);
        }
        FUZZ_CHECK(p.implicit ? p.line == 0 : p.line >= 1 && p.line <= lines);
        for (const auto& m : p.members) {
            FUZZ_CHECK((m.set == MemberSet::port) == (m.guid != 0));
            FUZZ_CHECK(p.implicit || (m.line >= p.line && m.line <= lines));
        }
    }
    FUZZ_CHECK(keys.contains(kDefaultPartition));
    for (size_t i = 0; i < conf.issues.size(); ++i) {
        FUZZ_CHECK(conf.issues[i].line >= 1 && conf.issues[i].line <= lines);
        FUZZ_CHECK(!conf.issues[i].message.empty());
        if (i > 0) FUZZ_CHECK(conf.issues[i - 1].line <= conf.issues[i].line);
    }
    // A comment at the end changes nothing that was read.
    const auto again = parse_partitions_conf(std::string(text) + "\n# end\n");
    FUZZ_CHECK(again.partitions == conf.partitions);
    return 0;
}
