#pragma once
// A table view that copies its selection (Ctrl+C, or the context menu) as tab-separated text
// with a header line, so rows paste into a ticket or a spreadsheet as they look.

#include <QTableView>

namespace rdmadiag::gui::widgets {

class CopyableTableView final : public QTableView {
    Q_OBJECT
public:
    explicit CopyableTableView(QWidget* parent = nullptr);

    // The selection as text (what copy puts on the clipboard).
    QString selection_text() const;
    void copy_selection() const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
};

}  // namespace rdmadiag::gui::widgets
