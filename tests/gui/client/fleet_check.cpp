// fleet_check PROMETHEUS_URL: asks a Prometheus for the fleet the way rdmadiag-gui's fleet view
// does (FleetFeed into FleetModel) and prints the model's rows as JSON on one line, for
// fleet_prometheus_test.py to compare with what each daemon says of itself. Exits 1 when no
// answer came within 30 s.
#include <QCoreApplication>
#include <QTimer>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "gui/client/fleet_feed.hpp"
#include "gui/models/fleet_model.hpp"

namespace {

using rdmadiag::gui::models::FleetModel;

std::string cell(const FleetModel& m, int row, int column, const QModelIndex& parent = {}) {
    return m.index(row, column, parent).data().toString().toStdString();
}

nlohmann::json model_rows(const FleetModel& m) {
    nlohmann::json hosts = nlohmann::json::array();
    for (int h = 0; h < m.rowCount(); ++h) {
        const QModelIndex host = m.index(h, 0);
        nlohmann::json findings = nlohmann::json::array();
        for (int f = 0; f < m.rowCount(host); ++f) {
            findings.push_back({{"rule", cell(m, f, FleetModel::HostColumn, host)},
                                {"severity", cell(m, f, FleetModel::HealthColumn, host)},
                                {"subject", cell(m, f, FleetModel::FindingsColumn, host)},
                                {"count", std::stoi(cell(m, f, FleetModel::WorstColumn, host))}});
        }
        hosts.push_back({{"instance", cell(m, h, FleetModel::HostColumn)},
                         {"health", cell(m, h, FleetModel::HealthColumn)},
                         {"active", std::stoi(cell(m, h, FleetModel::FindingsColumn))},
                         {"worst", cell(m, h, FleetModel::WorstColumn)},
                         {"findings", findings}});
    }
    return hosts;
}

}  // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: fleet_check PROMETHEUS_URL\n");
        return 2;
    }
    rdmadiag::gui::client::FleetFeed feed(QUrl(QString::fromLocal8Bit(argv[1])));
    FleetModel model;
    int rc = 1;
    QObject::connect(&feed, &rdmadiag::gui::client::FleetFeed::stateReady,
                     [&](const rdmadiag::gui::models::FleetState& state) {
                         model.set_state(state);
                         std::printf("%s\n", model_rows(model).dump().c_str());
                         rc = 0;
                         QCoreApplication::quit();
                     });
    QObject::connect(&feed, &rdmadiag::gui::client::FleetFeed::statusChanged,
                     [](bool ok, const QString& text) {
                         if (!ok) std::fprintf(stderr, "%s\n", text.toLocal8Bit().constData());
                     });
    QTimer::singleShot(30000, &app, &QCoreApplication::quit);
    feed.start();
    QCoreApplication::exec();
    return rc;
}
