// Reads a MotionSolve-style XML deck into a ModelSpec with Xerces-C (set up by xerces_setup.h, the only other file
// that knows it), validating every element against its schema. External entities and DTDs are never loaded.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "elements/model_spec.h"
#include "solver/xml/attribute_setting.h"
#include "solver/core/diagnostics.h"

namespace lodestone {

// One element of a deck as the reader saw it, its settings applied: what the Python package shows of a deck.
struct DeckElement {
  ElementNode node;     // node.loc.element is the canonical name, empty for a name the catalog does not know
  std::string section;  // "Model", "Command", or empty for an element directly under the root
};

// Reads the deck at `path` with `settings` applied. Every problem goes to `diagnostics` with file:line:col;
// returns nullopt when the deck had any error (warnings alone do not fail it). A setting that matches no element
// of the deck is an error. `elements`, when given, receives every element read, in document order.
std::optional<ModelSpec> readDeck(const std::string& path, Diagnostics& diagnostics,
                                  const std::vector<AttributeSetting>& settings = {},
                                  std::vector<DeckElement>* elements = nullptr);

// Same, from text in memory; `displayName` is the file name used in messages.
std::optional<ModelSpec> readDeckText(const std::string& text, const std::string& displayName, Diagnostics& diagnostics,
                                      const std::vector<AttributeSetting>& settings = {},
                                      std::vector<DeckElement>* elements = nullptr);

}  // namespace lodestone
