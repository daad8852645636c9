#include "collector/common/simple_yaml.hpp"

#include <gtest/gtest.h>

namespace rdmadiag::common {
namespace {

TEST(SimpleYaml, ParsesNestedMappingsScalarsAndLists) {
    auto r = parse_simple_yaml(R"(# comment
web:
  listen-address: ":9857"   # trailing comment
  config-file: 'web.yml'
devices:
  include: [mlx5_*, rxe0]
  exclude:
    - "mlx5_9"
    - mlx5_8
empty:
)");
    ASSERT_TRUE(r.ok()) << r.error().message;
    const YamlNode& root = *r;
    ASSERT_TRUE(root.is_map());
    EXPECT_EQ(root.get("web")->get("listen-address")->scalar, ":9857");
    EXPECT_EQ(root.get("web")->get("config-file")->scalar, "web.yml");
    const auto* inc = root.get("devices")->get("include");
    ASSERT_TRUE(inc->is_list());
    ASSERT_EQ(inc->list.size(), 2u);
    EXPECT_EQ(inc->list[1].scalar, "rxe0");
    const auto* exc = root.get("devices")->get("exclude");
    ASSERT_EQ(exc->list.size(), 2u);
    EXPECT_EQ(exc->list[0].scalar, "mlx5_9");
    EXPECT_TRUE(root.get("empty")->is_null());
    EXPECT_EQ(root.get("missing"), nullptr);
}

TEST(SimpleYaml, ASequenceMayStartAtItsKeysIndentation) {
    auto r = parse_simple_yaml("list:\n- a\n- b\nnext: 1\n");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->get("list")->list.size(), 2u);
    EXPECT_EQ(r->get("next")->scalar, "1");
}

TEST(SimpleYaml, KeepsHashesInsideQuotesAndBcryptHashes) {
    auto r = parse_simple_yaml("users:\n  alice: $2y$10$abc#def\n  bob: \"a # b\"\n");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->get("users")->get("alice")->scalar, "$2y$10$abc#def");
    EXPECT_EQ(r->get("users")->get("bob")->scalar, "a # b");
}

TEST(SimpleYaml, QuotedEscapes) {
    auto r = parse_simple_yaml("a: \"x\\\"y\\n\"\nb: 'it''s'\n");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->get("a")->scalar, "x\"y\n");
    EXPECT_EQ(r->get("b")->scalar, "it's");
}

TEST(SimpleYaml, EmptyDocumentIsNull) {
    auto r = parse_simple_yaml("# nothing\n---\n");
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->is_null());
}

struct BadCase {
    const char* text;
    const char* message;
};

class SimpleYamlErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(SimpleYamlErrors, AreRefusedWithTheLine) {
    auto r = parse_simple_yaml(GetParam().text);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find(GetParam().message), std::string::npos) << r.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SimpleYamlErrors,
    ::testing::Values(BadCase{"a: 1\n  b: 2\n", "line 2: unexpected indentation"},
                      BadCase{"a: 1\na: 2\n", "line 2: duplicate key 'a'"},
                      BadCase{"a: &anchor 1\n", "line 1: unsupported YAML construct"},
                      BadCase{"a: {b: 1}\n", "unsupported YAML construct"},
                      BadCase{"a: \"open\n", "line 1: unterminated quoted string"},
                      BadCase{"\ta: 1\n", "tabs"}, BadCase{"just text\n", "expected 'key: value'"},
                      BadCase{"a:\n  - x: 1\n", "mappings inside sequences"},
                      BadCase{"a: [1, 2\n", "unterminated flow sequence"},
                      BadCase{"a: |\n  text\n", "unsupported YAML construct"}));

}  // namespace
}  // namespace rdmadiag::common
