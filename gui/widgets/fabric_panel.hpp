#pragma once
// The fabric: switches, HCAs and their ports, with health badges and a search box, on the left;
// the selected port's P_Key table with every view side by side on the right, with the cache's
// state above it, and beside it (tabs) the port's GIDs: the kernel's cache against the port, the
// SM and the netdev; and its consumers: who on this host uses the port's P_Keys and GIDs, and
// which of them a finding hits.

#include <QModelIndex>
#include <QWidget>
#include <optional>

#include "collector/model/port_ref.hpp"

class QLabel;
class QLineEdit;
class QTimer;
class QTreeView;
class QSortFilterProxyModel;
class QTabWidget;

namespace rdmadiag::gui::models {
class DashboardModels;
class PortTreeFilter;
}  // namespace rdmadiag::gui::models

namespace rdmadiag::gui::widgets {

class CopyableTableView;

class FabricPanel final : public QWidget {
    Q_OBJECT
public:
    FabricPanel(models::DashboardModels& models, QWidget* parent = nullptr);

    void refresh();  // after the models were updated
    void show_port(const PortRef& port);

    QTreeView* tree() const { return tree_; }
    QLineEdit* search_box() const { return search_; }
    models::PortTreeFilter* tree_filter() const { return filter_; }
    CopyableTableView* pkey_view() const { return pkey_view_; }
    QLabel* cache_label() const { return cache_; }
    CopyableTableView* gid_view() const { return gid_view_; }
    QLabel* gid_label() const { return gid_label_; }
    QTabWidget* port_tabs() const { return tabs_; }
    CopyableTableView* consumer_view() const { return consumer_view_; }
    QLabel* consumer_label() const { return consumer_label_; }
    // Brings the Consumers tab forward, with the first consumer a finding hits in view.
    void show_consumers();
    bool consumers_tab_current() const;

Q_SIGNALS:
    void portSelected();
    void portTabChanged();

private:
    // The constructor's steps: the port tree and its search, the tabs of the selected port, the
    // panel's layout, and what follows the tree's selection.
    void set_up_port_tree();
    QWidget* build_pkey_tab();
    QWidget* build_gid_tab();
    QWidget* build_consumer_tab();
    QWidget* build_tree_side();
    void lay_out(QWidget* left, QWidget* right);
    void follow_selection();
    void expand_for_reading();
    QModelIndex view_index_of(const PortRef& port) const;

    models::DashboardModels& models_;
    models::PortTreeFilter* filter_;
    QLineEdit* search_;
    QTimer* search_delay_;
    QTreeView* tree_;
    QLabel* title_;
    QLabel* cache_;
    QSortFilterProxyModel* pkey_proxy_;
    CopyableTableView* pkey_view_;
    QTabWidget* tabs_;
    QLabel* gid_label_;
    QSortFilterProxyModel* gid_proxy_;
    CopyableTableView* gid_view_;
    QLabel* consumer_label_;
    QSortFilterProxyModel* consumer_proxy_;
    CopyableTableView* consumer_view_;
    QWidget* consumer_tab_ = nullptr;
    bool syncing_ = false;
};

}  // namespace rdmadiag::gui::widgets
