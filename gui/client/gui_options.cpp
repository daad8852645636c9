#include "gui/client/gui_options.hpp"

#include <QFile>
#include <QUrl>
#include <sstream>

#include "collector/model/pkey.hpp"
#include "collector/sim/shipped_scenarios.hpp"
#include "collector/sources/partitions_conf/partitions_conf_source.hpp"
#include "collector/sources/partitions_conf/partitions_options.hpp"
#include "gui/client/api_feed.hpp"
#include "gui/client/engine_timeline.hpp"
#include "gui/client/fleet_feed.hpp"
#include "gui/client/playback_feed.hpp"
#include "gui/client/recording_kind.hpp"
#include "gui/client/recording_timeline.hpp"
#include "gui/client/snapshot_recording.hpp"

namespace rdmadiag::gui::client {

std::span<const sources::OptionSpec> gui_source_options() {
    return partitions_conf::partitions_options();
}

namespace {

// "  --KEY VALUE" and the declared help, in the columns and width of the rest of the usage.
QString source_option_usage() {
    constexpr size_t kHelpColumn = 25, kWidth = 84;
    std::string out;
    for (const auto& spec : gui_source_options()) {
        const std::string head =
            "  --" + std::string(spec.key) + " " + sources::option_value_name(spec);
        out += head;
        size_t column = head.size();
        if (column >= kHelpColumn) {
            out += "\n";
            column = 0;
        }
        std::istringstream words(sources::option_help(spec));
        bool first = true;
        for (std::string word; words >> word; first = false) {
            if (!first && column + 1 + word.size() > kWidth) {
                out += "\n";
                column = 0;
            }
            const size_t pad = column < kHelpColumn ? kHelpColumn - column : 1;
            out += std::string(pad, ' ') + word;
            column += pad + word.size();
        }
        out += "\n";
    }
    return QString::fromStdString(out);
}

}  // namespace

QString gui_usage() {
    return QStringLiteral(
               "Usage: rdmadiag-gui [URL | RECORDING | --simulate[=SCENARIO] | --prometheus URL]\n"
               "                    [options]\n"
               "\n"
               "  URL                    a running 'rdmadiag serve', e.g. http://127.0.0.1:9857\n"
               "  RECORDING              a recording made by 'rdmadiag record', played through "
               "the\n"
               "                         engine; or a saved /api/v1/snapshot answer, or JSON Lines "
               "of\n"
               "                         them (told apart by content)\n"
               "  --simulate[=SCENARIO]  play a built-in scenario (default: 'default') or a .scn "
               "file\n"
               "  --prometheus URL       the fleet: every rdmadiag a Prometheus or "
               "VictoriaMetrics\n"
               "                         at URL scrapes, by host (double-click opens a host)\n"
               "  (nothing)              same as --simulate=default\n"
               "\n"
               "Options:\n"
               "  --interval SECONDS     how often the daemon's change feed is read (default 1;\n"
               "                         a daemon without one is read whole every 2x as long)\n"
               "  --speed X              playback speed (default 5)\n"
               "  --at SECONDS           start playback at this position\n"
               "  --clock.start TIME     scenarios start at this RFC 3339 UTC time (default: now)\n"
               "  --screenshot FILE.png  render the window once (after --at) to FILE and exit\n"
               "  --size WxH             window size (default 1280x800)\n"
               "  --search TEXT          start with TEXT in the fabric's search box\n"
               "  --partition PKEY       start on the Partitions tab with this partition chosen\n"
               "  --consumers DEV:PORT   start on this port's consumers (fabric view)\n"
               "  --trace                print each snapshot and change applied, with the time, "
               "to\n"
               "                         stderr (scripts/bench-gui-scale reads it)\n"
               "  --list-scenarios       print the built-in scenarios and exit\n"
               "  -h, --help             this text\n"
               "\n"
               "Options of the sources played beside a scenario, as 'rdmadiag serve --simulate'\n"
               "takes them:\n") +
           source_option_usage();
}

namespace {

// The declared source option --KEY (or its older spelling) names, or null.
const sources::OptionSpec* source_option(const QString& arg) {
    for (const auto& spec : gui_source_options()) {
        for (std::string_view name : {spec.key, spec.alias}) {
            if (!name.empty() && arg == QString::fromStdString("--" + std::string(name)))
                return &spec;
        }
    }
    return nullptr;
}

Result<double> number(const QString& option, const QString& text) {
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || v < 0) {
        return make_error(QStringLiteral("%1 expects a non-negative number, not '%2'")
                              .arg(option, text)
                              .toStdString());
    }
    return v;
}

}  // namespace

Result<GuiOptions> parse_gui_options(const QStringList& args) {
    GuiOptions o;
    bool have_target = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        QString arg = args[i];
        QString value;
        bool has_value = false;
        if (arg.startsWith(QLatin1String("--")) && arg.contains(QLatin1Char('='))) {
            value = arg.section(QLatin1Char('='), 1);
            arg = arg.section(QLatin1Char('='), 0, 0);
            has_value = true;
        }
        auto take = [&]() -> Result<QString> {
            if (has_value) return value;
            if (i + 1 >= args.size()) {
                return make_error(QStringLiteral("%1 expects a value").arg(arg).toStdString());
            }
            return args[++i];
        };
        if (arg == QLatin1String("-h") || arg == QLatin1String("--help")) {
            o.help = true;
        } else if (arg == QLatin1String("--list-scenarios")) {
            o.list_scenarios = true;
        } else if (arg == QLatin1String("--search")) {
            o.search = RDMADIAG_TRY(take()).toStdString();
        } else if (const sources::OptionSpec* spec = source_option(arg)) {
            const std::string text = RDMADIAG_TRY(take()).toStdString();
            if (auto v = sources::parse_option(*spec, text); !v)
                return make_error(std::string(partitions_conf::kSourceName) +
                                  " source: " + v.error().message);
            o.source_options[std::string(spec->key)] = text;
        } else if (arg == QLatin1String("--partition")) {
            const auto pkey = parse_pkey(RDMADIAG_TRY(take()).toStdString());
            if (!pkey) return make_error("--partition: " + pkey.error().message);
            o.partition = pkey_base(*pkey);
        } else if (arg == QLatin1String("--consumers")) {
            auto port = parse_port_ref(RDMADIAG_TRY(take()).toStdString());
            if (!port) return make_error("--consumers: " + port.error().message);
            if (port->port == 0) return make_error("--consumers: name a port, DEV:PORT");
            o.consumers_of = std::move(*port);
        } else if (arg == QLatin1String("--trace")) {
            o.trace = true;
        } else if (arg == QLatin1String("--simulate")) {
            if (have_target) return make_error("give one of URL, RECORDING or --simulate");
            o.mode = GuiOptions::Mode::simulate;
            o.target = has_value && !value.isEmpty() ? value.toStdString() : "default";
            have_target = true;
        } else if (arg == QLatin1String("--prometheus")) {
            if (have_target) return make_error("give one of URL, RECORDING or --simulate");
            const QString url = RDMADIAG_TRY(take());
            if (!url.startsWith(QLatin1String("http://")) &&
                !url.startsWith(QLatin1String("https://"))) {
                return make_error("--prometheus expects an http:// or https:// URL");
            }
            o.mode = GuiOptions::Mode::fleet;
            o.target = url.toStdString();
            have_target = true;
        } else if (arg == QLatin1String("--interval") || arg == QLatin1String("--speed") ||
                   arg == QLatin1String("--at")) {
            const double n = RDMADIAG_TRY(number(arg, RDMADIAG_TRY(take())));
            if (arg == QLatin1String("--interval")) {
                if (n < 0.1) return make_error("--interval must be at least 0.1 s");
                o.interval_s = n;
            } else if (arg == QLatin1String("--speed")) {
                if (n < 0.1) return make_error("--speed must be at least 0.1");
                o.speed = n;
            } else {
                o.at_s = n;
            }
        } else if (arg == QLatin1String("--clock.start")) {
            auto t = parse_time(RDMADIAG_TRY(take()).toStdString());
            if (!t) return make_error("--clock.start: " + t.error().message);
            o.clock_start = *t;
        } else if (arg == QLatin1String("--screenshot")) {
            o.screenshot = RDMADIAG_TRY(take()).toStdString();
        } else if (arg == QLatin1String("--size")) {
            const auto parts = RDMADIAG_TRY(take()).split(QLatin1Char('x'));
            bool okw = false;
            bool okh = false;
            if (parts.size() == 2) {
                o.width = parts[0].toInt(&okw);
                o.height = parts[1].toInt(&okh);
            }
            if (!okw || !okh || o.width < 320 || o.height < 240) {
                return make_error("--size expects WxH, at least 320x240, e.g. 1280x800");
            }
        } else if (arg.startsWith(QLatin1Char('-')) && arg.size() > 1) {
            return make_error(
                QStringLiteral("unknown option %1 (see --help)").arg(arg).toStdString());
        } else {
            if (have_target) return make_error("give one of URL, RECORDING or --simulate");
            have_target = true;
            o.target = arg.toStdString();
            const QUrl url(arg);
            const bool is_url =
                url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https");
            o.mode = is_url ? GuiOptions::Mode::daemon : GuiOptions::Mode::recording;
        }
    }
    if (!have_target) o.target = std::string(sim::kDefaultScenario);
    if (!o.source_options.empty() && o.mode != GuiOptions::Mode::simulate) {
        // A daemon judges against its own file; a recording holds the intent it was made with.
        return make_error("--" + o.source_options.begin()->first + " goes with --simulate only");
    }
    return o;
}

FleetFeed* make_fleet_feed(const GuiOptions& o, QObject* parent) {
    return new FleetFeed(QUrl(QString::fromStdString(o.target)),
                         std::chrono::milliseconds(static_cast<int64_t>(o.interval_s * 5000)),
                         parent);
}

Result<SnapshotFeed*> make_feed(const GuiOptions& o, QObject* parent) {
    switch (o.mode) {
        case GuiOptions::Mode::daemon: {
            ApiFeedOptions api;
            api.interval = std::chrono::milliseconds(static_cast<int64_t>(o.interval_s * 1000));
            api.timeout = std::max(api.timeout, api.interval);
            return static_cast<SnapshotFeed*>(
                new ApiFeed(QUrl(QString::fromStdString(o.target)), api, parent));
        }
        case GuiOptions::Mode::recording: {
            QFile file(QString::fromStdString(o.target));
            if (!file.open(QIODevice::ReadOnly)) {
                return make_error("cannot open recording " + o.target + ": " +
                                  file.errorString().toStdString());
            }
            const QByteArray bytes = file.readAll();
            const std::string_view text(bytes.constData(), static_cast<size_t>(bytes.size()));
            std::unique_ptr<Timeline> timeline;
            if (detect_recording_kind(text) == RecordingKind::observations) {
                timeline = RDMADIAG_TRY(make_recording_timeline(text, o.target));
            } else {
                auto rec = parse_snapshot_recording(text);
                if (!rec) return make_error(o.target + ": " + rec.error().message);
                timeline = std::make_unique<SnapshotTimeline>(std::move(*rec),
                                                              "saved snapshots " + o.target);
            }
            auto* feed = new PlaybackFeed(std::move(timeline), parent);
            feed->set_speed(o.speed);
            return static_cast<SnapshotFeed*>(feed);
        }
        case GuiOptions::Mode::fleet:
            return make_error("the fleet view has no snapshot feed (make_fleet_feed)");
        case GuiOptions::Mode::simulate:
            break;
    }
    const TimePoint start = o.clock_start.value_or(SystemClock{}.now());
    if (auto it = o.source_options.find(partitions_conf::kConfOption);
        it != o.source_options.end()) {
        // Said now, in words: the source would only report itself down once playing.
        QFile conf(QString::fromStdString(it->second));
        if (!conf.open(QIODevice::ReadOnly)) {
            return make_error("cannot read " + it->second + ": " +
                              conf.errorString().toStdString());
        }
    }
    // The timeline first: a TRY inside new's arguments would leave the allocation behind.
    auto timeline = RDMADIAG_TRY(make_scenario_timeline(o.target, start, o.source_options));
    auto* feed = new PlaybackFeed(std::move(timeline), parent);
    feed->set_speed(o.speed);
    return static_cast<SnapshotFeed*>(feed);
}

}  // namespace rdmadiag::gui::client
