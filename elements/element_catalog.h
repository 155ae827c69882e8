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
  // The schema's rows, kept for the reference `lodestone elements` prints; variant rows by keyword value.
  struct Variants {
    std::string attribute;
    std::vector<std::pair<std::string, std::vector<AttributeRule>>> rows;
  };
  std::vector<AttributeRule> attributes;
  std::vector<Variants> variantSets;
  // Read forms; an empty function means the element cannot appear in that section.
  std::function<void(const ElementNode&, ModelSpec&, ReadContext&)> readInModel;
  std::function<void(const ElementNode&, ModelSpec&, ReadContext&)> readInCommand;
};

// Case-insensitive lookup; nullptr for a name the catalog does not know.
const ElementKind* findElementKind(std::string_view name);
// Every element the catalog knows, in catalog order (read elements first).
std::vector<const ElementKind*> allElementKinds();
// The rule of attribute `name` (lower case) for an element written with the attributes `given`: the kind's own
// rows, then those of the variant each selecting attribute names (cnf_type="IMPACT" brings in `stiffness`), as the
// reader applies them; nullptr when none has that name.
const AttributeRule* findAttributeRule(const ElementKind& kind, const std::vector<ElementNode::Attribute>& given,
                                       std::string_view name);
// A plain-text reference of one element: where it goes, and each attribute's type, default or requirement,
// range and whether a command can change it. Made from the same schema the reader validates with.
std::string describeElement(const ElementKind& kind);
// The same reference for every element, as one Markdown page (docs/elements.md is this text, kept current by a test).
std::string elementsReferenceMarkdown();

// Checks that need the whole deck once every element has been read (e.g. the sequence of Simulate times).
void checkWholeDeck(const ModelSpec& spec, ReadContext& context);

}  // namespace lodestone
