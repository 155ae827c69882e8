// Reference_Array: attributes, and the numbers of its text checked against its type and num_element.
#include "reference_array.h"

#include <cmath>

#include "solver/core/text.h"

namespace lodestone {

namespace {
using S = ReferenceArraySpec;
}  // namespace

const ElementSchema<ReferenceArraySpec>& referenceArraySchema() {
  static const ElementSchema<S> schema{
      .element = "Reference_Array",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type, {"X", "U", "Y", "IC"}),
          attr::integer("num_element", &S::num_element).atLeast(0),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void completeReferenceArray(ReferenceArraySpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  const std::vector<std::string> items = splitList(elementText);
  const std::string type = spec.type.value_or("");
  if (type == "X" || type == "Y") {
    if (!items.empty()) {
      diagnostics.error(spec.loc, "type=\"" + type + "\" holds the " + (type == "X" ? "states" : "outputs") +
                                      " of a Control_StateEqn, so its text must be empty; it has " +
                                      std::to_string(items.size()) + " items");
    }
    if (!spec.num_element) diagnostics.error(spec.loc, "type=\"" + type + "\" needs num_element, its size");
    return;
  }
  std::vector<double> values;
  for (size_t k = 0; k < items.size(); ++k) {
    const std::optional<double> value = parseReal(items[k]);
    if (!value) {
      diagnostics.error(spec.loc, "item " + std::to_string(k + 1) + " of the text, '" + items[k] +
                                      "', is not a finite number");
      return;
    }
    if (type == "U" && (*value != std::floor(*value) || *value <= 0)) {
      diagnostics.error(spec.loc, "item " + std::to_string(k + 1) + " of the text, '" + items[k] +
                                      "', is not a Reference_Variable id (a positive whole number), which a "
                                      "type=\"U\" array lists");
      return;
    }
    values.push_back(*value);
  }
  if (spec.num_element && static_cast<size_t>(*spec.num_element) != values.size()) {
    diagnostics.error(spec.loc, "num_element=\"" + std::to_string(*spec.num_element) + "\" but the text holds " +
                                    std::to_string(values.size()) + (values.size() == 1 ? " value" : " values"));
    return;
  }
  spec.values = std::move(values);
}

}  // namespace lodestone
