// Quoted user text in messages: short text whole, long text as its start and end with the count left out, never
// cut inside a UTF-8 character.
#include <string>

#include <gtest/gtest.h>

#include "solver/core/excerpt.h"

namespace lodestone {
namespace {

TEST(Excerpt, ShortTextIsQuotedWhole) {
  EXPECT_EQ(excerpt("2*SIN(TIME)"), "2*SIN(TIME)");
  EXPECT_EQ(excerpt(std::string(kExcerptCharacters, 'x')), std::string(kExcerptCharacters, 'x'));
}

TEST(Excerpt, LongTextKeepsItsStartAndEnd) {
  const std::string text = "start" + std::string(1'000'000, '9') + "end";
  const std::string shown = excerpt(text, 30);
  EXPECT_EQ(shown, "start999999999999999...[999978 characters left out]...9999999end");
}

// "é" is two bytes: the cuts fall before or after it, and it counts as one character left out.
TEST(Excerpt, CutsFallBetweenCharacters) {
  std::string text;
  for (int k = 0; k < 20; ++k) text += "\xC3\xA9";
  const std::string shown = excerpt(text, 9);
  EXPECT_EQ(shown, "\xC3\xA9\xC3\xA9\xC3\xA9...[16 characters left out]...\xC3\xA9");
}

}  // namespace
}  // namespace lodestone
