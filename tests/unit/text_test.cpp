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

// Typing slips: one edit per inserted, dropped, changed or swapped character, case ignored.
TEST(Text, EditDistanceCountsTypingSlips) {
  EXPECT_EQ(editDistance("stiffness", "stiffness"), 0);
  EXPECT_EQ(editDistance("Stiffness", "stiffness"), 0);
  EXPECT_EQ(editDistance("stifness", "stiffness"), 1);   // dropped
  EXPECT_EQ(editDistance("stiffnness", "stiffness"), 1); // doubled
  EXPECT_EQ(editDistance("stiffnass", "stiffness"), 1);  // changed
  EXPECT_EQ(editDistance("dampnig", "damping"), 1);      // swapped neighbours
  EXPECT_EQ(editDistance("", "abc"), 3);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3);       // Levenshtein's own example
  EXPECT_EQ(editDistance("ca", "abc"), 3);               // swaps are not combined with edits between them (OSA)
}

TEST(Text, NearestNamesAreThoseWithinASlipOfTheGivenLength) {
  const std::vector<std::string> names{"stiffness", "damping", "kx", "ky", "kz", "id", "length"};
  EXPECT_EQ(nearestNames("stifnes", names), std::vector<std::string>{"stiffness"});  // 2 in 7 characters
  EXPECT_EQ(nearestNames("kq", names), (std::vector<std::string>{"kx", "ky", "kz"}));
  EXPECT_EQ(nearestNames("k", names), (std::vector<std::string>{"kx", "ky", "kz"}));
  EXPECT_TRUE(nearestNames("k", {"stiffness", "damping", "id", "length"}).empty())
      << "'id' is 2 away, more than one slip in a name this short";
  EXPECT_TRUE(nearestNames("colour", names).empty());
  EXPECT_EQ(listAlternatives({"a"}), "'a'");
  EXPECT_EQ(listAlternatives({"a", "b", "c"}, "<", ">"), "<a>, <b> or <c>");
}

}  // namespace
}  // namespace lodestone
