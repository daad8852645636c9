#pragma once
// The command line of rdmadiag-gui and the feed it asks for:
//   rdmadiag-gui [URL | RECORDING | --simulate[=SCENARIO] | --prometheus URL] [options]
// No argument plays the built-in simulated `default` scenario, so a new user sees everything.
// RECORDING is an observation recording (`rdmadiag record`), replayed through the engine, or
// saved API snapshots, shown as they are; the file's first line tells which.

#include <QObject>
#include <QStringList>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "collector/common/result.hpp"
#include "collector/common/time.hpp"
#include "collector/model/port_ref.hpp"
#include "collector/sources/source_options.hpp"

namespace rdmadiag::gui::client {

class FleetFeed;
class SnapshotFeed;

struct GuiOptions {
    enum class Mode { simulate, daemon, recording, fleet };
    Mode mode = Mode::simulate;
    std::string target;          // scenario name or file, URL, recording path, or Prometheus URL
    double interval_s = 1.0;     // daemon poll interval (change feed)
    double speed = 5.0;          // playback speed
    std::optional<double> at_s;  // start playback at this position
    std::optional<TimePoint> clock_start;  // scenarios start at this time (default: now)
    std::string screenshot;                // render once to this PNG and exit
    int width = 1280;
    int height = 800;
    std::string search;  // start with this in the fabric search box
    // --KEY VALUE for the options of the sources played beside a scenario (the partitions
    // source's: partitions.conf, the intent a scenario is judged against), checked as declared.
    std::map<std::string, std::string> source_options;
    std::optional<uint16_t> partition;    // start on the Partitions tab with this one (base P_Key)
    std::optional<PortRef> consumers_of;  // start on this port's Consumers tab
    bool trace = false;                   // print each snapshot and delta applied (stderr)
    bool help = false;
    bool list_scenarios = false;
};

Result<GuiOptions> parse_gui_options(const QStringList& args);  // args without the program name
// The options of the sources the GUI plays beside a scenario, as declared by those sources.
std::span<const sources::OptionSpec> gui_source_options();
QString gui_usage();

// The feed the options ask for, or why it cannot be made (unknown scenario, unreadable
// recording). The caller owns the feed.
Result<SnapshotFeed*> make_feed(const GuiOptions& options, QObject* parent = nullptr);
// For Mode::fleet: polls the Prometheus every 5 x --interval seconds (5 s by default).
FleetFeed* make_fleet_feed(const GuiOptions& options, QObject* parent = nullptr);

}  // namespace rdmadiag::gui::client
