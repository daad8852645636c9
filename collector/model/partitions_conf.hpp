#pragma once
// The subnet manager's intent: opensm's partitions.conf, read with the grammar opensm itself
// reads it with (doc/partition-config.txt and its parser), so that what rdmadiag calls intended is
// what the SM will program.
//
//   <Definition> : <Port list> ;
//   Definition: [Name][=PKey][,flag[=value]]...   flags: ipoib, indx0, defmember=full|limited|both
//                                                 and the IPoIB group's rate, mtu, sl, scope, ...
//   Port:       <GUID>|ALL|ALL_CAS|ALL_SWITCHES|ALL_ROUTERS|SELF|NONE [=full|limited|both]
//
// A statement ends at ';' and may go on over several lines after its ':'; '#' starts a comment;
// an `mgid=...` line inside a statement defines a multicast group and takes the rest of its line.
// Like opensm, keywords and flags may be abbreviated (any prefix of the word, "limi" is limited),
// an unknown membership is limited, an unknown flag is ignored, statements with the same P_Key
// merge under the first one's name, and a file without a rule for the default partition
// (0x7fff) means `Default=0x7fff : ALL=limited, SELF=full`. Unlike opensm, which stops at its
// first bad statement, a statement that cannot be read is reported with its line and costs only
// itself.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collector/model/pkey.hpp"

namespace rdmadiag {

// `both` is a full and a limited entry where opensm's allow_both_pkeys is set, full otherwise.
enum class Membership : uint8_t { limited, full, both };
std::string_view to_string(Membership m);

// Whom a member rule names.
enum class MemberSet : uint8_t { port, all, all_cas, all_switches, all_routers, self };
std::string_view to_string(MemberSet s);

struct MemberRule {
    MemberSet set = MemberSet::port;
    uint64_t guid = 0;  // set == port: the end port's GUID
    Membership membership = Membership::limited;
    uint32_t line = 0;
    bool operator==(const MemberRule&) const = default;
};

struct PartitionIntent {
    std::string name;
    // The P_Key's 15-bit base; none when the file leaves it to the SM to generate.
    std::optional<uint16_t> pkey;
    bool ipoib = false;
    bool indx0 = false;     // to be placed at P_Key index 0
    bool implicit = false;  // the default partition opensm makes when the file has no rule for it
    std::vector<MemberRule> members;  // in file order; later rules may restate earlier ones
    uint32_t line = 0;                // of the first statement that defined it
    bool operator==(const PartitionIntent&) const = default;
};

struct ConfIssue {
    uint32_t line = 0;
    // A statement or a port that was skipped; otherwise a warning about what opensm assumes.
    bool skipped = false;
    std::string message;
    bool operator==(const ConfIssue&) const = default;
};

struct PartitionsConf {
    std::vector<PartitionIntent> partitions;  // in the order they were first defined
    std::vector<ConfIssue> issues;            // by line
};

// The default partition's base key (P_Key 0xffff, 0x7fff as a limited member).
constexpr uint16_t kDefaultPartition = pkey_base(kDefaultPKey);

PartitionsConf parse_partitions_conf(std::string_view text);

}  // namespace rdmadiag
