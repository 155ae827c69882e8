#include "contact_pairs.h"

#include <algorithm>

namespace lodestone {

Pose placeGraphic(const ContactGraphic& graphic, const BodyKinematics* body) {
  if (!body) return graphic.local;
  return {body->position + body->rotation * graphic.local.position, body->rotation * graphic.local.rotation};
}

std::vector<std::vector<GraphicRole>> graphicRoles(const ContactModel& contacts) {
  std::vector<std::vector<GraphicRole>> roles(contacts.graphics.size());
  for (size_t e = 0; e < contacts.elements.size(); ++e) {
    const int element = static_cast<int>(e);
    const auto join = [&](int graphic, bool isI) {
      std::vector<GraphicRole>& list = roles[static_cast<size_t>(graphic)];
      if (list.empty() || list.back().element != element) list.push_back({element, false, false});
      (isI ? list.back().inI : list.back().inJ) = true;
    };
    for (int graphic : contacts.elements[e].iGraphics) join(graphic, true);
    for (int graphic : contacts.elements[e].jGraphics) join(graphic, false);
  }
  return roles;
}

std::optional<std::pair<int, int>> orientPair(const GraphicRole& roleOfA, std::span<const GraphicRole> rolesOfB, int a,
                                              int b) {
  const auto roleOfB = std::find_if(rolesOfB.begin(), rolesOfB.end(),
                                    [&](const GraphicRole& r) { return r.element == roleOfA.element; });
  if (roleOfB == rolesOfB.end()) return std::nullopt;
  if (roleOfA.inI && roleOfB->inJ) return std::pair{a, b};
  if (roleOfB->inI && roleOfA.inJ) return std::pair{b, a};
  return std::nullopt;
}

}  // namespace lodestone
