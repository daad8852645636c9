#pragma once
// One walk over the tree: the reads, the parsing and the observations of a single poll or
// refresh. Every failed value becomes a SampleError and nothing else. Its parts are defined by
// concept: the pass's own reads and listings (sysfs_pass.cpp), device identity
// (device_info_read.cpp), port state (port_state_read.cpp), the P_Key and GID tables
// (table_reads.cpp) and the counters (counter_reads.cpp); read_schedule.cpp decides which run.

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "collector/model/observation.hpp"
#include "collector/sources/counter_tiers.hpp"
#include "collector/sources/source.hpp"
#include "collector/sources/sysfs/counter_methods.hpp"
#include "collector/sources/sysfs/known_port.hpp"
#include "collector/sources/sysfs/sysfs_parsers.hpp"
#include "collector/sources/sysfs/sysfs_reader.hpp"
#include "collector/sources/sysfs/sysfs_source.hpp"
#include "collector/sources/sysfs/value_folder.hpp"

namespace rdmadiag::sysfs {

// The numbered entries of a listing (table indexes, port numbers), in order ("10" after "2").
std::vector<uint32_t> numbered_entries(const std::vector<std::string>& names);

// A quantity read from both counters/ and counters_ext/ this pass: its name, and what each file
// (or the method standing for it) gave.
using CounterTwins =
    std::vector<std::pair<std::string_view, std::array<std::optional<uint64_t>, 2>>>;

// One counter folder of a port, as a pass reads it.
struct CounterFolder {
    std::string_view name;  // counters, counters_ext or hw_counters
    Listing& files;
    CounterKind kind;
    // What a counter method gave for the port (counter_methods.hpp); null: only the files.
    const MethodValues* method_values = nullptr;
    // The quantities in both legacy folders: a counter named here is not emitted but kept, at
    // `twin_slot`, and the pair reported once.
    CounterTwins* twins = nullptr;
    size_t twin_slot = 0;
};

class SysfsSource::Pass {
public:
    Pass(SysfsSource& src, TimePoint now, sources::ObservationSink& sink)
        : src_(src), now_(now), sink_(sink) {}

    void emit(ObservationBody body);
    void error(std::string subject, const Error& e);

    // Reads one value file and parses it. Absent files are errors unless `optional`.
    // `held`: a file read again on a schedule, which the reader may keep open (noted there).
    template <class Parse>
    auto value(Folder& folder, std::string_view name, Parse parse, bool optional = false,
               HeldSlot* held = nullptr)
        -> std::optional<std::decay_t<decltype(parse(std::string_view{}).value())>> {
        char buf[sysfs::kReadBufferSize];
        const std::string& path = folder.path(name);
        auto n = held ? src_.reader_->read_held(path, buf, sizeof buf, *held)
                      : src_.reader_->read_file(path, buf, sizeof buf);
        if (!n) {
            if (!(optional && n.error().code == ENOENT) &&
                !src_.device_vanished(folder.device(), n.error().code)) {
                error(folder.subject(name), n.error());
            }
            return std::nullopt;
        }
        auto parsed = parse(std::string_view(buf, *n));
        if (!parsed) {
            error(folder.subject(name), parsed.error());
            return std::nullopt;
        }
        return std::move(parsed).value();
    }

    // Lists a directory of `device`; a missing one is reported unless `optional`.
    std::optional<std::vector<std::string>> listing(const std::string& path,
                                                    const std::string& device,
                                                    const std::string& subject, bool optional);

    // Listed on the tables cadence and kept between: a device's ports do not come and go while
    // it stays registered, and a device that goes away leaves the device list first.
    const std::vector<uint32_t>* ports_of(const std::string& dev);

    // The sorted file names of one of the port's folders. A port without a counter folder has
    // none of those counters, and that is no error (`optional`): no PMA (rxe, iWARP) means no
    // counters/, a driver without statistics no hw_counters/, and only mlx4 has counters_ext/.
    // Listed with the whole tables and kept between, as the ports are.
    // With `numbered`, only names that are table indexes, in index order ("10" after "2").
    std::optional<Listing>& listed_files(const PortRef& port, KnownPort& known, PortFolder which,
                                         bool optional = true, bool numbered = false);

    // Device identity: node type, GUIDs, description, firmware, and the transport, which needs
    // the first port's link layer.
    void device_info(const std::string& dev, std::optional<uint32_t> first_port);

    // The port's state (when `read_state`) and its GIDs (when `read_table`, or never read), in
    // that order: a change of state has the GID table read whole. The state is sent with the
    // GIDs; what the counter methods need to know of the port comes back, carried from the last
    // reading when the state was not read.
    sources::PortFacts state_and_gids(const PortRef& port, KnownPort& known, bool read_state,
                                      bool read_table, bool whole);

    // The port's P_Key table: its head where the table carried from the last whole read still
    // stands for the rest (SysfsSource's comment says when), the whole table otherwise.
    void pkey_table(const PortRef& port, KnownPort& known, bool whole);

    // A port's counters whose tier is due: counters/ (the PMA), counters_ext/ (mlx4's 64-bit
    // forms of some of them) and hw_counters/ (the driver's). The tiers decide which counters are
    // read; each folder's counter method, where one answers for the port, how
    // (counter_methods.hpp), the files otherwise. A quantity in both counters/ and counters_ext/
    // is read from both and reported once (twin_counter.hpp).
    void port_counters(const PortRef& port, KnownPort& known, const sources::PortFacts& facts,
                       sources::CounterTiers due);

private:
    // port_state_read.cpp
    PortStateSample port_state(const PortRef& port, KnownPort& known, bool all);

    // table_reads.cpp
    template <class T, class NameOf, class Parse>
    bool head_reads_as(Folder& dir, const std::vector<T>& carried, size_t head,
                       std::vector<HeldSlot>& slots, NameOf name_of, Parse parse);
    void read_gids(const PortRef& port, KnownPort& known, bool whole);
    PortGids whole_gid_table(const PortRef& port, const KnownPort& known,
                             const std::vector<std::string>& names);
    void whole_pkey_table(const PortRef& port, KnownPort& known);

    // counter_reads.cpp
    void pma_counters(const PortRef& port, KnownPort& known, const sources::PortFacts& facts,
                      sources::CounterTiers due);
    void emit_twins(const PortRef& port, KnownPort& known, const CounterTwins& twins);
    // Emits the counters of `folder` whose tier is due: the value a counter method gave where
    // there is one, the file's otherwise.
    void counters(const PortRef& port, KnownPort& watch, sources::CounterTiers due,
                  const CounterFolder& folder);
    std::optional<uint64_t> counter_file(Folder& dir, const std::string& file, CounterKind kind,
                                         KnownPort& watch, HeldSlot& slot);

    std::string device_dir(const std::string& dev) const { return src_.class_dir_ + "/" + dev; }

    SysfsSource& src_;
    TimePoint now_;
    sources::ObservationSink& sink_;
    std::optional<Listing> unlisted_;  // stays empty
};

}  // namespace rdmadiag::sysfs
