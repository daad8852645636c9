#pragma once
// The async-event timeline, newest first: PKEY_CHANGE, PORT_ERR, QP_FATAL, ... as delivered.

#include <vector>

#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"
#include "gui/models/node_names.hpp"

namespace rdmadiag::gui::models {

class EventModel final : public KeyedTableModel {
public:
    enum Column {
        TimeColumn,
        DeviceColumn,
        PortColumn,
        TypeColumn,
        ElementColumn,
        SourceColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, TypeRole };

    // `names` (may be null: keys are shown) says what a person calls each device.
    explicit EventModel(const NodeNames* names = nullptr, QObject* parent = nullptr)
        : KeyedTableModel(parent), names_(names) {}

    void set_events(const std::vector<EventRecord>& events);
    const EventRecord* event_at(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const NodeNames* names_;
    std::vector<EventRecord> rows_;  // newest first
};

}  // namespace rdmadiag::gui::models
