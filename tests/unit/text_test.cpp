// Strict parsing of deck numbers and lists.
#include <gtest/gtest.h>

#include "solver/core/text.h"

namespace lodestone {
namespace {

TEST(Text, RealsInEveryExporterSpelling) {
  EXPECT_EQ(parseReal("600."), 600.0);
  EXPECT_EQ(parseReal("1.0000E-10"), 1e-10);
  EXPECT_EQ(parseReal(" -9810 "), -9810.0);
  EXPECT_EQ(parseReal("1.5D3"), 1500.0);
  EXPECT_EQ(parseReal("+2e-3"), 2e-3);
}

TEST(Text, RejectsWhatIsNotAFiniteNumber) {
  for (const char* bad : {"", " ", "nan", "inf", "-Infinity", "1e999", "0x1p3", "1,5", "1 2", "1e", "e5", "--1"}) {
    EXPECT_FALSE(parseReal(bad)) << bad;
  }
}

TEST(Text, IntegersAndBooleans) {
  EXPECT_EQ(parseInteger("30101010"), 30101010L);
  EXPECT_EQ(parseInteger("5."), 5L);
  EXPECT_FALSE(parseInteger("5.5"));
  EXPECT_FALSE(parseInteger("five"));
  EXPECT_EQ(parseBoolean("True"), true);
  EXPECT_EQ(parseBoolean("FALSE"), false);
  EXPECT_FALSE(parseBoolean("maybe"));
}

TEST(Text, ListsSplitOnSpacesAndCommas) {
  EXPECT_EQ(splitList(" 82 83,84\n85 "), (std::vector<std::string>{"82", "83", "84", "85"}));
  EXPECT_TRUE(splitList("   ").empty());
}

TEST(Text, ShortestRoundTrip) {
  EXPECT_EQ(formatReal(0.1), "0.1");
  EXPECT_EQ(formatReal(1e-7), "1e-07");
  EXPECT_EQ(formatReal(-3.0000000000000004), "-3.0000000000000004");
  EXPECT_EQ(formatReal(-9810), "-9810");
  EXPECT_EQ(formatReal(1e-8), "1e-08");
}

}  // namespace
}  // namespace lodestone
