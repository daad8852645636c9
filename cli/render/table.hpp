#pragma once
// A plain-text table: left-aligned text columns, right-aligned number columns, two spaces
// between columns, no decoration, so it reads well at 80 columns and pastes into tickets.

#include <string>
#include <vector>

namespace rdmadiag::cli::render {

enum class Align { left, right };

struct Column {
    std::string title;
    Align align = Align::left;
};

class Table {
public:
    explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}
    void add_row(std::vector<std::string> cells);
    bool empty() const { return rows_.empty(); }
    std::string render() const;

private:
    std::vector<Column> columns_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace rdmadiag::cli::render
