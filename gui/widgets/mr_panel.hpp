#pragma once
// Memory regions, filterable by state; stuck ones flagged "needs deregistration" with the
// advice for their transport below the table.

#include <QWidget>

class QComboBox;
class QLabel;

namespace rdmadiag::gui {

class FilteredTable;
class MrFilterProxy;
class MrTableModel;

class MrPanel final : public QWidget {
    Q_OBJECT
public:
    MrPanel(MrTableModel* model, QWidget* parent = nullptr);

    void refresh();
    FilteredTable* table() const { return table_; }
    QComboBox* state_box() const { return state_; }
    MrFilterProxy* proxy() const { return proxy_; }

private:
    void show_advice();

    MrTableModel* model_;
    MrFilterProxy* proxy_;
    FilteredTable* table_;
    QComboBox* state_;
    QLabel* advice_;
};

}  // namespace rdmadiag::gui
