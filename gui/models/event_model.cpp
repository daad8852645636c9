#include "gui/models/event_model.hpp"

#include "gui/models/display_text.hpp"

namespace rdmadiag::gui::models {

void EventModel::set_events(const std::vector<EventRecord>& events) {
    std::vector<EventRecord> next(events.rbegin(), events.rend());
    replace_rows(rows_, std::move(next), [](const EventRecord& e) {
        return std::make_tuple(e.time, e.event.device, e.event.port, e.event.type, e.event.element);
    });
}

const EventRecord* EventModel::event_at(int row) const {
    if (row < 0 || static_cast<size_t>(row) >= rows_.size()) return nullptr;
    return &rows_[static_cast<size_t>(row)];
}

int EventModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int EventModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant EventModel::data(const QModelIndex& index, int role) const {
    const EventRecord* e = index.isValid() ? event_at(index.row()) : nullptr;
    if (!e) return {};
    switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
                case TimeColumn:
                    return full_time_text(e->time);
                case DeviceColumn:
                    return names_ ? names_->node(e->event.device) : qs(e->event.device);
                case PortColumn:
                    return e->event.port ? QString::number(*e->event.port) : QString();
                case TypeColumn:
                    return qs(to_string(e->event.type));
                case ElementColumn:
                    return e->event.element ? QStringLiteral("0x%1").arg(*e->event.element, 0, 16)
                                            : QString();
                case SourceColumn:
                    return qs(e->source);
            }
            return {};
        case SortRole:
            if (index.column() == TimeColumn) {
                return static_cast<qlonglong>(e->time.time_since_epoch().count());
            }
            if (index.column() == PortColumn) return e->event.port ? int(*e->event.port) : -1;
            return data(index, Qt::DisplayRole);
        case TypeRole:
            return qs(to_string(e->event.type));
        case Qt::ToolTipRole:
            if (index.column() != DeviceColumn) return {};
            return names_ ? names_->with_key(e->event.device) : qs(e->event.device);
        case Qt::BackgroundRole:
            switch (e->event.type) {
                case AsyncEventType::pkey_change:
                    return QColor(0xe3, 0xf0, 0xfd);
                case AsyncEventType::port_err:
                case AsyncEventType::qp_fatal:
                case AsyncEventType::device_fatal:
                case AsyncEventType::cq_err:
                case AsyncEventType::wq_fatal:
                    return QColor(0xfd, 0xe0, 0xe0);
                default:
                    return {};
            }
        default:
            return {};
    }
}

QVariant EventModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[] = {"Time (UTC)", "Device",  "Port",
                                         "Event",      "Element", "Source"};
    if (section < 0 || section >= ColumnCount) return {};
    return QString::fromLatin1(kNames[section]);
}

}  // namespace rdmadiag::gui::models
