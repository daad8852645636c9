// Every built-in source's option declarations are well formed, and the man page lists exactly
// them, with the value and default they declare: the page cannot drift from the code.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "collector/builtin/builtin_sources.hpp"
#include "tests/support/test_paths.hpp"

namespace rdmadiag::builtin {
namespace {

sources::SourceRegistry builtin_registry() {
    sources::SourceRegistry r;
    register_builtin_sources(r);
    return r;
}

TEST(BuiltinOptions, EachIsWellDeclared) {
    const auto reg = builtin_registry();
    std::set<std::string> spellings;
    size_t count = 0;
    for (const auto& e : reg.entries()) {
        for (const auto& spec : e.options) {
            ++count;
            const std::string key(spec.key);
            EXPECT_EQ(key.rfind(e.name + ".", 0), 0u) << key << " is named after its source";
            EXPECT_TRUE(spellings.insert(key).second) << key << " is declared twice";
            if (!spec.alias.empty()) {
                EXPECT_TRUE(spellings.insert(std::string(spec.alias)).second) << spec.alias;
            }
            EXPECT_FALSE(spec.help.empty()) << key;
            if (spec.type == sources::OptionType::choice) {
                EXPECT_FALSE(spec.choices.empty()) << key;
            }
            if (!spec.default_text.empty()) {
                auto d = sources::parse_option(spec, spec.default_text);
                EXPECT_TRUE(d.ok()) << key << ": " << (d ? "" : d.error().message);
            }
            EXPECT_EQ(reg.find_option(key).spec, &spec);
        }
    }
    EXPECT_GE(count, 20u) << "sysfs, tracefs, netdev, probe and partitions declare theirs";
}

struct ManEntry {
    std::string value;  // as the page names it: DURATION, local|subnet
    std::string text;   // the paragraph, in roff
};

// The SOURCE OPTIONS section of cli/rdmadiag.1: ".TP" then ".BI KEY= VALUE" then the paragraph.
std::map<std::string, ManEntry> man_page_options() {
    std::ifstream in(::rdmadiag::test::source_dir() + "/cli/rdmadiag.1");
    std::map<std::string, ManEntry> out;
    bool inside = false;
    std::string line, after_tp, current;
    bool tp = false;
    while (std::getline(in, line)) {
        if (line.rfind(".SH", 0) == 0) {
            inside = line == ".SH SOURCE OPTIONS";
            current.clear();
            continue;
        }
        if (!inside) continue;
        if (line == ".TP") {
            tp = true;
            current.clear();
            continue;
        }
        if (tp) {
            tp = false;
            std::istringstream words(line);
            std::string macro, key, value, rest;
            words >> macro >> key >> value;
            EXPECT_EQ(macro, ".BI") << line;
            EXPECT_FALSE(std::getline(words, rest) && !rest.empty())
                << "one option a line: " << line;
            EXPECT_EQ(key.back(), '=') << line;
            key.pop_back();
            EXPECT_FALSE(out.count(key)) << key << " listed twice";
            out[key] = ManEntry{value, ""};
            current = key;
            continue;
        }
        if (!current.empty()) out[current].text += line + "\n";
    }
    return out;
}

TEST(BuiltinOptions, TheManPageListsEveryOneAsDeclared) {
    const auto reg = builtin_registry();
    const auto page = man_page_options();
    ASSERT_FALSE(page.empty()) << "no SOURCE OPTIONS section in cli/rdmadiag.1";
    for (const auto& e : reg.entries()) {
        for (const auto& spec : e.options) {
            const std::string key(spec.key);
            auto it = page.find(key);
            if (it == page.end()) {
                ADD_FAILURE() << key << " is not in the man page's SOURCE OPTIONS";
                continue;
            }
            EXPECT_EQ(it->second.value, sources::option_value_name(spec)) << key;
            if (!spec.default_text.empty()) {
                EXPECT_NE(it->second.text.find("default"), std::string::npos) << key;
                EXPECT_NE(it->second.text.find(std::string(spec.default_text)), std::string::npos)
                    << key << ": the page does not give the default " << spec.default_text;
            }
        }
    }
    // A source this build left out (no rdma-core: verbs, mad) is still on the page.
    for (const auto& [key, entry] : page) {
        const std::string source = key.substr(0, key.find('.'));
        if (reg.find(source)) {
            EXPECT_NE(reg.find_option(key).spec, nullptr) << key << " is on the page only";
        }
    }
}

}  // namespace
}  // namespace rdmadiag::builtin
