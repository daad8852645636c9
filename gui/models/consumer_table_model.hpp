#pragma once
// Who uses one port: its IPoIB interfaces, SRP hosts, RDMA CM IDs and QP groups, each with the
// P_Key (and index, said as inferred where it is) and the GID it uses, and the consumer.*
// findings that hit it. The rows come from the engine's inventory (a playback) or a daemon's
// /api/v1/consumers answer; the findings from the snapshot.

#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "collector/model/consumer.hpp"
#include "collector/model/snapshot.hpp"
#include "gui/models/keyed_table_model.hpp"

namespace rdmadiag::gui::models {

class ConsumerTableModel final : public KeyedTableModel {
public:
    // What a person on call reads first comes first: who, and whether a finding hits it.
    enum Column {
        KindColumn,
        NameColumn,
        HitColumn,
        PKeyColumn,
        IndexColumn,
        OwnerColumn,
        TypeColumn,
        StateColumn,
        GidColumn,
        CountColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, HitRole };

    using KeyedTableModel::KeyedTableModel;

    // `consumers` may be null (no consumers source reported, or not read yet); `port` null when
    // nothing is selected. `findings` are the snapshot's.
    void set_port(const HostConsumers* consumers, const PortSnapshot* port,
                  const std::vector<Finding>& findings);

    // One line above the table: how many consumers, of which kinds, how many hit, and whether
    // the listing is complete.
    QString summary() const;
    // The row of a consumer hit by a finding, for the panel to bring into view; none when no
    // consumer is hit.
    std::optional<int> first_hit_row() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Row {
        Consumer consumer;
        QString hit_text;  // the rules of the findings that hit it
        QString hit_tip;   // their evidence
        std::optional<Severity> worst;
    };

    std::optional<PortRef> port_;
    bool listed_ = false;   // a consumers source reported for this port's device
    bool complete_ = true;  // its listing was whole
    QString notes_;         // why it was not
    std::vector<Row> rows_;
};

}  // namespace rdmadiag::gui::models
