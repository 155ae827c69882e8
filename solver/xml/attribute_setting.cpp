#include "attribute_setting.h"

#include "solver/core/text.h"

namespace lodestone {

std::string AttributeSetting::text() const {
  return element + ":" + (id ? std::to_string(*id) : std::string()) + ":" + attribute + "=" + value;
}

SettingParse parseAttributeSetting(const std::string& text) {
  const auto fail = [&](const std::string& why) {
    return SettingParse{std::nullopt, "'" + text + "' is not ELEMENT:ID:ATTRIBUTE=VALUE: " + why};
  };
  const size_t equals = text.find('=');
  if (equals == std::string::npos) return fail("no '='");
  const std::string target = text.substr(0, equals);
  const size_t firstColon = target.find(':');
  const size_t secondColon = firstColon == std::string::npos ? std::string::npos : target.find(':', firstColon + 1);
  if (secondColon == std::string::npos) return fail("it needs two ':' before the '='");
  AttributeSetting setting;
  setting.element = std::string(trim(target.substr(0, firstColon)));
  const std::string id(trim(target.substr(firstColon + 1, secondColon - firstColon - 1)));
  setting.attribute = std::string(trim(target.substr(secondColon + 1)));
  setting.value = text.substr(equals + 1);
  if (setting.element.empty()) return fail("the element name is missing");
  if (setting.attribute.empty()) return fail("the attribute name is missing");
  if (!id.empty()) {
    setting.id = parseInteger(id);
    if (!setting.id) return fail("the id '" + id + "' is not a whole number");
  }
  return {setting, {}};
}

}  // namespace lodestone
