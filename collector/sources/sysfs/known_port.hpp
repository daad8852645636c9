#pragma once
// What the sysfs source carries for one port from one pass to the next: the state last read in
// full, the GIDs and the P_Key table last read whole (which the head reads stand on), the folder
// listings, and the counters' history that decides when they are read and reported.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/gid.hpp"
#include "collector/model/observation.hpp"
#include "collector/model/pkey.hpp"
#include "collector/sources/counter_tiers.hpp"
#include "collector/sources/sysfs/sysfs_parsers.hpp"
#include "collector/sources/sysfs/sysfs_reader.hpp"
#include "collector/sources/sysfs/twin_counter.hpp"

namespace rdmadiag::sysfs {

// What the slow cadence learnt of a port's GIDs, carried by the fast one.
struct PortGids {
    std::vector<std::string> gids;  // the non-zero ones, as sysfs prints them
    std::optional<uint64_t> port_guid;
    std::vector<sysfs::Gid> table;  // every entry, in index order, for the head reads
    GidTable view;                  // the cache view: the non-zero entries with their attributes
    bool unsent = true;             // the view was read whole and not yet emitted
    bool complete = false;          // every entry was read
    bool suspect = false;           // the port's state changed since: read it whole
};

// A folder's listing, kept between whole table passes, with where each file is held.
struct Listing {
    std::vector<std::string> names;  // sorted
    std::vector<HeldSlot> slots;     // by name
    // By name, for counter folders: each counter's tier, and why it is fast (filled by the
    // first pass that reads the folder: until then it is shorter than `names`).
    std::vector<std::optional<sources::FastReason>> fast;
    std::vector<std::optional<uint64_t>> reported;  // by name: the value last emitted
};

// The port's P_Key table as last read whole, for the passes that read only its head.
struct CarriedTable {
    PKeyTable table;
    // The P_Key violations seen (PortCounters' constraint errors in and out), and whether
    // they rose or the port's state changed since the table was read: read it whole next.
    std::array<uint64_t, 2> violations{};
    bool suspect = false;
    std::vector<HeldSlot> slots;  // the head's entries, where the reader holds them
};

// The folders of a port whose listings are kept.
enum class PortFolder : uint8_t { counters, counters_ext, hw_counters, gids };
constexpr size_t kPortFolders = 4;

struct FolderListing {
    bool listed = false;             // since the listings were last forgotten
    std::optional<Listing> listing;  // nullopt: the port has no such folder
};

// Everything carried for one port between passes, found once per pass.
struct KnownPort {
    std::string dir;  // <class_dir>/<device>/ports/<port>
    // The attributes last read in full, carried while the state stays (Pass::port_state),
    // and where the reader holds the port's own files (state, phys_state, lid, sm_lid,
    // lid_mask_count, link_layer, rate, cap_mask).
    PortStateSample last;
    bool read = false;
    std::array<HeldSlot, 8> slots;
    // The narrow error counters (counter_tiers.hpp) where each is its own file: their sum
    // when last read, and until when fast passes read them. Quiet, they are read with the
    // slow tier; one that moved, or a change of the port's state, has every fast pass read
    // them for a slow interval (narrow_fast_hold).
    uint64_t narrow_sum = 0;
    bool narrow_read = false;
    std::optional<TimePoint> narrow_fast_until;
    std::optional<PortGids> gids;       // read at least once
    std::optional<CarriedTable> table;  // last read whole without a fault
    // The quantities in both counters/ and counters_ext/, by standard name.
    std::map<std::string, TwinCounter, std::less<>> twins;
    // The first counter folder the last PMA read found without values, and why
    // ("counters/: N/A (no PMA)"); empty when every value was there.
    std::string unavailable;
    std::array<FolderListing, kPortFolders> listings;  // by PortFolder
};

}  // namespace rdmadiag::sysfs
