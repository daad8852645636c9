#pragma once
// The fabric tree's search: a node matches when its name contains the text, or its key or
// NodeGUID does and the text has at least 6 characters (case-insensitive), or when the text is a
// number equal to its LID (decimal, or 0x hexadecimal). A matching node is shown with all its
// ports and its group; a port matches by its own LID.

#include <QSortFilterProxyModel>
#include <optional>

namespace rdmadiag::gui::models {

class PortTreeFilter final : public QSortFilterProxyModel {
public:
    explicit PortTreeFilter(QObject* parent = nullptr);

    void set_query(const QString& text);
    QString query() const { return text_; }

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

private:
    QString text_;  // lower case, trimmed
    std::optional<int> lid_;
};

}  // namespace rdmadiag::gui::models
