// The catalog of every element name the reader knows: those Lodestone reads, MotionSolve elements it accepts
// with a warning because they do not change the motion (output settings), and MotionSolve elements it cannot
// run yet, which are errors. A name in none of these lists is unknown and draws a warning.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "elements/model_spec.h"
#include "solver/core/schema.h"

namespace lodestone {

enum class ElementSupport { Read, IgnoredWithWarning, NotSupported };

struct ElementKind {
  std::string element;  // canonical spelling
  ElementSupport support = ElementSupport::Read;
  std::string note;     // why it is ignored or unsupported
  // Read forms; an empty function means the element cannot appear in that section.
  std::function<void(const ElementNode&, ModelSpec&, ReadContext&)> readInModel;
  std::function<void(const ElementNode&, ModelSpec&, ReadContext&)> readInCommand;
};

// Case-insensitive lookup; nullptr for a name the catalog does not know.
const ElementKind* findElementKind(std::string_view name);

// Checks that need the whole deck once every element has been read (e.g. the sequence of Simulate times).
void checkWholeDeck(const ModelSpec& spec, ReadContext& context);

}  // namespace lodestone
