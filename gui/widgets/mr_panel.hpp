#pragma once
// Memory regions, filterable by state; stuck ones flagged "needs deregistration" with the
// advice for their transport below the table.

#include <QWidget>

class QComboBox;
class QLabel;

namespace rdmadiag::gui::models {
class MrFilterProxy;
class MrTableModel;
}  // namespace rdmadiag::gui::models

namespace rdmadiag::gui::widgets {

class FilteredTable;

class MrPanel final : public QWidget {
    Q_OBJECT
public:
    MrPanel(models::MrTableModel* model, QWidget* parent = nullptr);

    void refresh();
    FilteredTable* table() const { return table_; }
    QComboBox* state_box() const { return state_; }
    models::MrFilterProxy* proxy() const { return proxy_; }

private:
    void show_advice();

    models::MrTableModel* model_;
    models::MrFilterProxy* proxy_;
    FilteredTable* table_;
    QComboBox* state_;
    QLabel* advice_;
};

}  // namespace rdmadiag::gui::widgets
