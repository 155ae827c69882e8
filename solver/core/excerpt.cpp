// Bounding quoted user text in diagnostics.
#include "excerpt.h"

namespace lodestone {

namespace {

bool isContinuationByte(char byte) { return (static_cast<unsigned char>(byte) & 0xC0) == 0x80; }

}  // namespace

std::string excerpt(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  // Most of it from the start, where a reader looks first; the end shows how it closes (a cycle's way back).
  std::size_t headEnd = limit * 2 / 3;
  while (headEnd > 0 && isContinuationByte(text[headEnd])) --headEnd;
  std::size_t tailStart = text.size() - (limit - limit * 2 / 3);
  while (tailStart < text.size() && isContinuationByte(text[tailStart])) ++tailStart;
  std::size_t leftOut = 0;  // in characters, as columns count them
  for (std::size_t k = headEnd; k < tailStart; ++k) leftOut += isContinuationByte(text[k]) ? 0 : 1;
  return std::string(text.substr(0, headEnd)) + "...[" + std::to_string(leftOut) + " characters left out]..." +
         std::string(text.substr(tailStart));
}

}  // namespace lodestone
