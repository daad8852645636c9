#include "gui/widgets/counter_chart.hpp"

#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>

#include "gui/models/counter_history.hpp"
#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::widgets {

namespace {
qint64 ms_of(TimePoint t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
}  // namespace

CounterChart::CounterChart(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    setMinimumHeight(160);
    clear_chart(tr("Select a port and one or more counters"));
}

int CounterChart::series_count() const {
    return static_cast<int>(chart()->series().size()) - marks_;
}

void CounterChart::clear_chart(const QString& why) {
    chart()->removeAllSeries();
    for (auto* axis : chart()->axes()) {
        chart()->removeAxis(axis);
        delete axis;
    }
    marks_ = 0;
    chart()->setTitle(why);
}

void CounterChart::show_counters(const models::CounterHistory& history, const PortRef& port,
                                 const QString& port_name, const std::vector<std::string>& counters,
                                 const std::deque<TimePoint>& pkey_changes) {
    clear_chart(tr("%1: counter totals").arg(port_name));
    qint64 t0 = std::numeric_limits<qint64>::max();
    qint64 t1 = std::numeric_limits<qint64>::min();
    double ymax = 1;
    std::vector<QLineSeries*> lines;
    for (const auto& name : counters) {
        const auto* points = history.series(port, name);
        if (!points || points->empty()) continue;
        auto* s = new QLineSeries;
        s->setName(models::qs(name));
        for (const auto& p : *points) {
            const qint64 x = ms_of(p.time);
            s->append(static_cast<qreal>(x), static_cast<qreal>(p.total));
            t0 = std::min(t0, x);
            t1 = std::max(t1, x);
            ymax = std::max(ymax, static_cast<double>(p.total));
        }
        lines.push_back(s);
    }
    if (lines.empty()) {
        clear_chart(tr("No history yet for the selected counters of %1").arg(port_name));
        return;
    }
    if (t1 <= t0) t1 = t0 + 1000;
    auto* x = new QDateTimeAxis;
    x->setFormat(QStringLiteral("HH:mm:ss"));
    x->setTitleText(tr("UTC"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(t0, Qt::UTC),
                QDateTime::fromMSecsSinceEpoch(t1, Qt::UTC));
    x->setTickCount(6);
    auto* y = new QValueAxis;
    y->setRange(0, ymax * 1.1);
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->applyNiceNumbers();
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
    for (auto* s : lines) {
        chart()->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    for (const TimePoint t : pkey_changes) {
        const qint64 at = ms_of(t);
        if (at < t0 || at > t1) continue;
        auto* mark = new QLineSeries;
        mark->setName(tr("P_Key table change"));
        mark->append(static_cast<qreal>(at), 0);
        mark->append(static_cast<qreal>(at), y->max());
        QPen pen(QColor(0x8e, 0x24, 0xaa));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        mark->setPen(pen);
        chart()->addSeries(mark);
        mark->attachAxis(x);
        mark->attachAxis(y);
        // One legend entry for all the marks.
        if (marks_ > 0) {
            for (auto* m : chart()->legend()->markers(mark)) m->setVisible(false);
        }
        ++marks_;
    }
}

}  // namespace rdmadiag::gui::widgets
