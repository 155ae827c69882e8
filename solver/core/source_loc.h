// Where a model object came from in the deck, so any later message can point back at it.
#pragma once

#include <optional>
#include <string>

namespace lodestone {

struct SourceLoc {
  std::string file;          // the deck path as the user gave it
  int line = 0;              // 1-based; 0 when unknown
  int column = 0;            // 1-based; 0 when unknown
  std::string element;       // canonical element name, e.g. "Body_Rigid"
  std::optional<long> id;    // the element's id attribute, when it has one

  // "deck.xml:12:3" (or just "deck.xml" when the line is unknown)
  std::string position() const;
  // "Body_Rigid id=2" (or "Param_Transient" for elements without id)
  std::string subject() const;
};

}  // namespace lodestone
