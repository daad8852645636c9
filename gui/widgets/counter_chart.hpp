#pragma once
// Counter totals over time for one port, from the dashboard's bounded history, with the times
// the port's P_Key table changed drawn as dashed vertical lines: a violation counter that climbs
// right after a change points at a consumer using a stale index.

#include <QChartView>
#include <deque>
#include <string>
#include <vector>

#include "collector/common/time.hpp"
#include "collector/model/port_ref.hpp"

namespace rdmadiag::gui::models {
class CounterHistory;
}  // namespace rdmadiag::gui::models

namespace rdmadiag::gui::widgets {

class CounterChart final : public QChartView {
    Q_OBJECT
public:
    explicit CounterChart(QWidget* parent = nullptr);

    // `port_name` is what the title calls the port ("Leaf017 port 3").
    void show_counters(const models::CounterHistory& history, const PortRef& port,
                       const QString& port_name, const std::vector<std::string>& counters,
                       const std::deque<TimePoint>& pkey_changes);
    void clear_chart(const QString& why);

    int series_count() const;
    int change_marks() const { return marks_; }

private:
    int marks_ = 0;
};

}  // namespace rdmadiag::gui::widgets
