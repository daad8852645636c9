#pragma once
// A copyable, sortable table with a filter box above it. The filter matches any column,
// case-insensitively; Ctrl+F in the panel focuses it, Escape clears it.

#include <QSortFilterProxyModel>
#include <QWidget>

class QLineEdit;
class QHBoxLayout;

namespace rdmadiag::gui::widgets {

class CopyableTableView;

class FilteredTable final : public QWidget {
    Q_OBJECT
public:
    // `proxy` may be given (a custom filter); otherwise a plain one is made. `sort_role` is the
    // source model's role to sort by.
    FilteredTable(QAbstractItemModel* source, int sort_role, const QString& placeholder,
                  QWidget* parent = nullptr, QSortFilterProxyModel* proxy = nullptr);

    CopyableTableView* view() const { return view_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    QLineEdit* filter_edit() const { return filter_; }
    // Room for extra controls (a state filter) left of the filter box.
    QHBoxLayout* bar() const { return bar_; }

private:
    QSortFilterProxyModel* proxy_;
    CopyableTableView* view_;
    QLineEdit* filter_;
    QHBoxLayout* bar_;
};

}  // namespace rdmadiag::gui::widgets
