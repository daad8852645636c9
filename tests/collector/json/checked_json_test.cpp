#include "collector/json/checked_json.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collector/json/json_fields.hpp"

namespace rdmadiag::codec {
namespace {

Json parse(const std::string& text) {
    return Json::parse(text);
}

template <class T>
std::string error_of(const Json& j) {
    try {
        (void)j.get<T>();
    } catch (const JsonDecodeError& e) {
        return e.what();
    } catch (const nlohmann::json::exception& e) {
        return e.what();
    }
    return "";
}

TEST(CheckedJson, IntegersInRangeReadAsThemselves) {
    EXPECT_EQ(parse("255").get<uint8_t>(), 255);
    EXPECT_EQ(parse("-128").get<int8_t>(), -128);
    EXPECT_EQ(parse("65535").get<uint16_t>(), 65535);
    EXPECT_EQ(parse("4294967295").get<uint32_t>(), 4294967295u);
    EXPECT_EQ(parse("18446744073709551615").get<uint64_t>(), UINT64_MAX);
    EXPECT_EQ(parse("-9223372036854775808").get<int64_t>(), INT64_MIN);
    EXPECT_EQ(parse("9223372036854775807").get<int64_t>(), INT64_MAX);
    EXPECT_EQ(parse("0").get<uint64_t>(), 0u);
}

TEST(CheckedJson, AnIntegerBeyondTheFieldsWidthIsAnError) {
    EXPECT_EQ(error_of<uint8_t>(parse("256")), "expected an integer from 0 to 255, got 256");
    EXPECT_EQ(error_of<int8_t>(parse("-129")), "expected an integer from -128 to 127, got -129");
    EXPECT_EQ(error_of<uint16_t>(parse("65536")), "expected an integer from 0 to 65535, got 65536");
    EXPECT_EQ(error_of<uint32_t>(parse("4294967296")),
              "expected an integer from 0 to 4294967295, got 4294967296");
    EXPECT_EQ(error_of<int64_t>(parse("9223372036854775808")),
              "expected an integer from -9223372036854775808 to 9223372036854775807, got "
              "9223372036854775808");
}

TEST(CheckedJson, ANegativeNumberIsNeverUnsigned) {
    EXPECT_EQ(error_of<uint64_t>(parse("-1")),
              "expected an integer from 0 to 18446744073709551615, got -1");
    EXPECT_EQ(error_of<uint32_t>(parse("-4294967295")),
              "expected an integer from 0 to 4294967295, got -4294967295");
}

TEST(CheckedJson, ANumberTooLargeForAnyIntegerIsAnError) {
    // The parser keeps a 72-digit number as a double; casting that to uint64_t is undefined.
    const Json j = parse("655" + std::string(67, '0') + "10");
    ASSERT_TRUE(j.is_number_float());
    EXPECT_EQ(error_of<uint64_t>(j),
              "expected an integer from 0 to 18446744073709551615, got 6.55e+71");
}

TEST(CheckedJson, AFractionOrExponentIsNotAnInteger) {
    EXPECT_NE(error_of<uint32_t>(parse("1.5")), "");
    EXPECT_NE(error_of<uint32_t>(parse("2.0")), "");
    EXPECT_NE(error_of<uint64_t>(parse("1e3")), "");
}

TEST(CheckedJson, BooleansStringsAndNullAreNotNumbers) {
    EXPECT_EQ(error_of<uint32_t>(parse("true")), "expected an integer, got a JSON boolean");
    EXPECT_EQ(error_of<int>(parse("\"7\"")), "expected an integer, got a JSON string");
    EXPECT_EQ(error_of<uint64_t>(parse("null")), "expected an integer, got a JSON null");
    EXPECT_EQ(error_of<double>(parse("false")), "expected a number, got a JSON boolean");
}

TEST(CheckedJson, FloatingPointFieldsTakeAnyNumber) {
    EXPECT_DOUBLE_EQ(parse("1.5").get<double>(), 1.5);
    EXPECT_DOUBLE_EQ(parse("-3").get<double>(), -3.0);
    EXPECT_DOUBLE_EQ(parse("18446744073709551615").get<double>(), 18446744073709551615.0);
}

TEST(CheckedJson, ContainersAreCheckedElementByElement) {
    EXPECT_EQ(parse("[1, 2, 65535]").get<std::vector<uint16_t>>(),
              (std::vector<uint16_t>{1, 2, 65535}));
    EXPECT_NE(error_of<std::vector<uint16_t>>(parse("[1, 65536]")), "");
    EXPECT_NE(error_of<std::vector<uint32_t>>(parse("[1, -1]")), "");
    using ByName = std::map<std::string, uint8_t>;
    EXPECT_NE(error_of<ByName>(parse(R"({"a": 1, "b": 300})")), "");
}

enum class Colour { red, green };

TEST(CheckedJson, EnumsHaveNoNumericConversion) {
    // Enums travel by name (json_fields.hpp enum_from); a number must never become one.
    static_assert(!nlohmann::detail::has_from_json<Json, Colour>::value);
    static_assert(!nlohmann::detail::has_to_json<Json, Colour>::value);
}

TEST(CheckedJson, FieldHelpersNameTheFieldOfAnError) {
    const Json j = parse(R"({"port": {"lid": 70000, "name": "x"}, "width": "wide"})");
    struct {
        uint16_t lid = 0;
        uint8_t width = 0;
    } out;
    try {
        in_field("port", [&] { get_required(j.at("port"), "lid", out.lid); });
        FAIL() << "no error";
    } catch (const JsonDecodeError& e) {
        EXPECT_EQ(e.path(), "port.lid");
        EXPECT_EQ(std::string(e.what()),
                  "field 'port.lid': expected an integer from 0 to 65535, got 70000");
    }
    try {
        get_to(j, "width", out.width);
        FAIL() << "no error";
    } catch (const JsonDecodeError& e) {
        EXPECT_EQ(std::string(e.what()), "field 'width': expected an integer, got a JSON string");
    }
    try {
        get_required(j, "missing", out.width);
        FAIL() << "no error";
    } catch (const JsonDecodeError& e) {
        EXPECT_EQ(std::string(e.what()), "field 'missing': missing");
    }
    EXPECT_EQ(out.lid, 0);
    EXPECT_EQ(out.width, 0);
}

}  // namespace
}  // namespace rdmadiag::codec
