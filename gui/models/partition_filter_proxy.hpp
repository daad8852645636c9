#pragma once
// Filters the partition list by P_Key or name. Text that reads as a P_Key is that partition,
// whichever way it is written: "0x8003", "8003", "0x0003" and "3" all find partition 0x0003 (the
// full member's key and the limited member's are one partition), and no other. A partition whose
// name holds the text matches too; other text is also looked for in the P_Keys.

#include <QSortFilterProxyModel>
#include <optional>

namespace rdmadiag::gui::models {

class PartitionFilterProxy final : public QSortFilterProxyModel {
public:
    explicit PartitionFilterProxy(QObject* parent = nullptr);

    void set_query(const QString& text);
    QString query() const { return query_; }

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

private:
    QString query_;
    std::optional<uint16_t> pkey_;  // the query read as a P_Key (base), where it reads as one
};

}  // namespace rdmadiag::gui::models
