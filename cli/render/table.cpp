#include "cli/render/table.hpp"

#include <algorithm>

namespace rdmadiag::cli::render {

namespace {
// Display width of UTF-8 text: counts code points, which is right for the text we print.
size_t display_width(const std::string& s) {
    return static_cast<size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
}  // namespace

void Table::add_row(std::vector<std::string> cells) {
    cells.resize(columns_.size());
    rows_.push_back(std::move(cells));
}

std::string Table::render() const {
    std::vector<size_t> width(columns_.size());
    for (size_t c = 0; c < columns_.size(); ++c) {
        width[c] = display_width(columns_[c].title);
        for (const auto& r : rows_) width[c] = std::max(width[c], display_width(r[c]));
    }
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells) {
        std::string line;
        for (size_t c = 0; c < columns_.size(); ++c) {
            const auto pad = width[c] - display_width(cells[c]);
            if (c > 0) line += "  ";
            if (columns_[c].align == Align::right) line.append(pad, ' ');
            line += cells[c];
            if (columns_[c].align == Align::left && c + 1 < columns_.size()) line.append(pad, ' ');
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line;
        out += '\n';
    };
    std::vector<std::string> titles;
    for (const auto& col : columns_) titles.push_back(col.title);
    emit(titles);
    for (const auto& r : rows_) emit(r);
    return out;
}

}  // namespace rdmadiag::cli::render
