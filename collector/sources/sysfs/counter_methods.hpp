#pragma once
// How the sysfs source reads a port's counter folders: counters/ and hw_counters/ file by file,
// or, where a reader is given and answers for the port, all of a folder's values at once (RDMA
// netlink statistics for hw_counters/, the port's local PMA for counters/). The files stay the
// reference: the folder is listed as always, each listed name takes the reader's value when it
// gave one and is read from its file otherwise, so names, widths and values are the same
// whichever way they came and no total goes backwards when a port changes method. A value the
// reader gives for a name the folder does not list (an optional counter enabled through `rdma
// statistic set ... optional-counters`, which sysfs never shows) is left out for the same reason.
//
// The counter tiers decide what a pass reads, the methods how: a reader is asked only for a
// folder with a due counter and told the due tiers, and only due counters are emitted, whatever
// else a query gave.
//
// It also keeps what the last pass did, for the source's status line and figures: per folder, the
// last pass whose tiers read that folder (a fast pass does not touch hw_counters/, so it leaves
// hw_counters/'s word as the last slow pass said it).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collector/common/figure.hpp"
#include "collector/common/result.hpp"
#include "collector/model/counter.hpp"
#include "collector/sources/port_counter_reader.hpp"
#include "collector/sources/source_registry.hpp"

namespace rdmadiag::sysfs {

struct CounterReaders {
    std::unique_ptr<sources::PortCounterReader> hw;   // hw_counters/
    std::unique_ptr<sources::PortCounterReader> pma;  // counters/
};

// A reader's values for one folder, sorted by name.
class MethodValues {
public:
    void assign(std::vector<sources::CounterValue> values);
    const sources::CounterValue* find(std::string_view name) const;

private:
    std::vector<sources::CounterValue> values_;
};

class CounterMethods {
public:
    explicit CounterMethods(CounterReaders readers = {});

    // A pass over the `due` tiers begins; with `retry` (the P_Key cadence) the readers try
    // again what they gave up on.
    void begin_pass(bool retry, sources::CounterTiers due);
    // The reader's values of the due tiers for `kind`'s folder of `port`, or nullptr: read the
    // files. Called once per port whose folder is there, which is what the tallies count.
    const MethodValues* read(CounterKind kind, const PortRef& port,
                             const sources::PortFacts& facts);
    void end_pass();

    // What the last pass that read each folder did, in words for `status` ("" without readers):
    // "hw_counters/ by netlink on 2 of 2 ports; counters/ by mad on 0 of 1 port (files: ...)".
    const std::string& status() const { return status_; }
    // Ports per method of the last pass that read the folder, for each folder that has a reader.
    std::vector<common::Figure> figures() const;

private:
    struct Tally {
        unsigned by_method = 0;
        unsigned by_files = 0;
        std::optional<std::string> first_fallback;  // "mlx5_0:1: why"
    };
    struct Kind {
        std::unique_ptr<sources::PortCounterReader> reader;
        std::string folder;  // "hw_counters/"
        MethodValues values;
        Tally pass;
        std::optional<Tally> last;  // the last pass whose tiers read this folder
    };
    Kind& of(CounterKind kind) { return kind == CounterKind::hw ? hw_ : pma_; }

    Kind hw_;
    Kind pma_;
    sources::CounterTiers due_;  // the tiers of the pass under way
    std::string status_;
};

// Whether sysfs.counters (auto | files, default auto) lets the source read counters another way
// than the files: with auto, only when `settings.sysfs_root` is a mounted sysfs (a fixture tree,
// a copy or a simulator's tree is read from its files).
bool counter_methods_wanted(const sources::SourceSettings& settings);

}  // namespace rdmadiag::sysfs
