// A deck attribute given its value from outside the deck, and how the command line spells one.
#pragma once

#include <optional>
#include <string>

namespace lodestone {

// One attribute given a value from outside the deck (`lodestone run --set Force_Contact:300:stiffness=2e5`, a
// sweep's variant, Python's deck.set): it replaces or adds the attribute on every element of that name and id as
// the deck is read, so the value is checked exactly as if the deck had it, and a message about it points at the
// element's line. An empty id (`Param_Transient::integr_tol=1e-6`) means the elements of that name without an id.
struct AttributeSetting {
  std::string element;    // as the deck spells elements, any case: "Force_Contact"
  std::optional<long> id;
  std::string attribute;  // any case
  std::string value;
  std::string text() const;  // "Force_Contact:300:stiffness=2e5", as given
};

// "ELEMENT:ID:ATTR=VALUE" (ID may be empty): the setting, or why the text is not one.
struct SettingParse {
  std::optional<AttributeSetting> setting;
  std::string error;
};
SettingParse parseAttributeSetting(const std::string& text);

}  // namespace lodestone
