#include "gui/widgets/filtered_table.hpp"

#include <QAction>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QVBoxLayout>

#include "gui/widgets/copyable_table_view.hpp"

namespace rdmadiag::gui::widgets {

FilteredTable::FilteredTable(QAbstractItemModel* source, int sort_role, const QString& placeholder,
                             QWidget* parent, QSortFilterProxyModel* proxy)
    : QWidget(parent),
      proxy_(proxy ? proxy : new QSortFilterProxyModel(this)),
      view_(new CopyableTableView(this)),
      filter_(new QLineEdit(this)),
      bar_(new QHBoxLayout) {
    if (!proxy_->parent()) proxy_->setParent(this);
    proxy_->setSourceModel(source);
    proxy_->setSortRole(sort_role);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setDynamicSortFilter(true);
    view_->setModel(proxy_);
    view_->sortByColumn(-1, Qt::AscendingOrder);  // the model's own order until a header is clicked

    filter_->setPlaceholderText(placeholder);
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    auto* focus = new QAction(this);
    focus->setShortcut(QKeySequence::Find);
    focus->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(focus, &QAction::triggered, filter_, [this] {
        filter_->setFocus();
        filter_->selectAll();
    });
    addAction(focus);
    auto* clear = new QAction(filter_);
    clear->setShortcut(Qt::Key_Escape);
    clear->setShortcutContext(Qt::WidgetShortcut);
    connect(clear, &QAction::triggered, this, [this] {
        filter_->clear();
        view_->setFocus();
    });
    filter_->addAction(clear);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    bar_->addStretch(1);
    bar_->addWidget(filter_, 2);
    layout->addLayout(bar_);
    layout->addWidget(view_, 1);
    setFocusProxy(view_);
}

}  // namespace rdmadiag::gui::widgets
