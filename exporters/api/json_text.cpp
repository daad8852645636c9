#include "exporters/api/json_text.hpp"

namespace rdmadiag::api {

using json = codec::Json;

void JsonText::dump(const json& value, std::string& out) {
    out += value.dump(-1, ' ', false, json::error_handler_t::replace);
}

void JsonText::key(std::string_view key) {
    if (!first_) out_ += ',';
    first_ = false;
    dump(json(key), out_);
    out_ += ':';
}

JsonText& JsonText::field(std::string_view k, const json& value) {
    key(k);
    dump(value, out_);
    return *this;
}

JsonText& JsonText::begin_list(std::string_view k) {
    key(k);
    out_ += '[';
    first_item_ = true;
    return *this;
}

JsonText& JsonText::item(const json& value) {
    if (!first_item_) out_ += ',';
    first_item_ = false;
    dump(value, out_);
    return *this;
}

JsonText& JsonText::end_list() {
    out_ += ']';
    return *this;
}

std::string JsonText::finish() {
    out_ += "}\n";
    return std::move(out_);
}

}  // namespace rdmadiag::api
