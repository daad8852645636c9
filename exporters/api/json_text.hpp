#pragma once
// An answer's JSON written as text, part by part: a long list is dumped item by item, so an
// answer holds its own text and one item's document at a time. nlohmann's document of a whole
// 12,000-port snapshot is about ten times its text, and building one per request was most of the
// daemon's memory.

#include <string>
#include <string_view>

#include "collector/json/checked_json.hpp"

namespace rdmadiag::api {

class JsonText {
public:
    JsonText() { out_ = "{"; }

    JsonText& field(std::string_view key, const codec::Json& value);
    JsonText& begin_list(std::string_view key);
    JsonText& item(const codec::Json& value);
    JsonText& end_list();
    // The text, with a closing newline as every answer has.
    std::string finish();

    // The one way every answer is dumped: invalid UTF-8 in names that came from devices is
    // replaced rather than thrown on.
    static void dump(const codec::Json& value, std::string& out);

private:
    void key(std::string_view key);
    std::string out_;
    bool first_ = true;       // no field written yet
    bool first_item_ = true;  // no item in the open list yet
};

}  // namespace rdmadiag::api
