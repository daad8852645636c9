#pragma once
// Tests that build one source from settings resolve its options first, as open_sources() does
// for the programs: a source reads typed options, never the text in SourceSettings::extra.

#include <gtest/gtest.h>

#include <span>
#include <string_view>

#include "collector/sources/source_registry.hpp"

namespace rdmadiag::test {

// `settings` with its extra options resolved against one source's declarations; a value they do
// not accept fails the calling test.
inline sources::SourceSettings resolved(sources::SourceSettings settings, std::string_view source,
                                        std::span<const sources::OptionSpec> specs) {
    auto r = sources::resolve_source_options(source, specs, settings);
    EXPECT_TRUE(r.ok()) << r.error().message;
    return settings;
}

}  // namespace rdmadiag::test
