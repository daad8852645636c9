#include "exporters/api/gzip_encoding.hpp"

#include <gtest/gtest.h>

#include "tests/exporters/api/gunzip.hpp"

namespace rdmadiag::api {
namespace {

TEST(GzipEncoding, AcceptEncodingAsClientsSendIt) {
    EXPECT_TRUE(accepts_gzip("gzip"));  // Prometheus
    EXPECT_TRUE(accepts_gzip("gzip, deflate"));
    EXPECT_TRUE(accepts_gzip("deflate, gzip;q=1.0, *;q=0.5"));
    EXPECT_TRUE(accepts_gzip("GZIP"));
    EXPECT_TRUE(accepts_gzip("x-gzip"));
    EXPECT_TRUE(accepts_gzip("br;q=1, gzip ; q=0.001"));
    EXPECT_TRUE(accepts_gzip("*"));
    EXPECT_FALSE(accepts_gzip(""));
    EXPECT_FALSE(accepts_gzip("identity"));
    EXPECT_FALSE(accepts_gzip("deflate, br"));
    EXPECT_FALSE(accepts_gzip("gzip;q=0"));
    EXPECT_FALSE(accepts_gzip("gzip;q=0.000"));
    EXPECT_FALSE(accepts_gzip("*;q=0"));
    EXPECT_FALSE(accepts_gzip("gzip;q=0, *"));  // refused by name, whatever * says
    EXPECT_FALSE(accepts_gzip("gzips"));
}

TEST(GzipEncoding, MalformedQualitiesAreRefusals) {
    EXPECT_FALSE(accepts_gzip("gzip;q="));
    EXPECT_FALSE(accepts_gzip("gzip;q=2"));
    EXPECT_FALSE(accepts_gzip("gzip;q=0.5x"));
    EXPECT_FALSE(accepts_gzip("gzip;q=1.00001"));
}

TEST(GzipEncoding, CompressedTextDecompressesToItself) {
    std::string text;
    for (int i = 0; i < 5000; ++i)
        text += "rdmadiag_port_counter{device=\"mlx5_0\",port=\"1\"} 17\n";
    auto z = gzip_compress(text);
    ASSERT_TRUE(z.ok());
    EXPECT_LT(z->size(), text.size() / 10);
    ASSERT_GE(z->size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>((*z)[0]), 0x1f);  // the gzip magic, not zlib's header
    EXPECT_EQ(static_cast<unsigned char>((*z)[1]), 0x8b);
    EXPECT_EQ(testing::gunzip(*z), text);
    auto empty = gzip_compress("");
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ(testing::gunzip(*empty), "");
}

}  // namespace
}  // namespace rdmadiag::api
