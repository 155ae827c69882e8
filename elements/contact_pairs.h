// What every part of contact that walks graphic pairs agrees on — the evaluator, the step limit against tunnelling,
// the interference check at the start: where a graphic is when its body moves, and which two graphics make a pair
// of an element, in which order.
#pragma once

#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "elements/body_rigid.h"
#include "elements/force_contact.h"

namespace lodestone {

// Where a graphic is in ground when its body (null: ground) has the given kinematics.
Pose placeGraphic(const ContactGraphic& graphic, const BodyKinematics* body);

// The kinematics of body `body` (an index into Model::bodies), or null for ground (−1).
inline const BodyKinematics* kinematicsOf(int body, std::span<const BodyKinematics> bodies) {
  return body < 0 ? nullptr : &bodies[static_cast<size_t>(body)];
}

// A graphic's part in one element: on its I side, its J side, or both (a pile lists its spheres as I and as J).
struct GraphicRole {
  int element = 0;
  bool inI = false, inJ = false;
};
// Per graphic of the contact model: the elements that list it, each once, in element order.
std::vector<std::vector<GraphicRole>> graphicRoles(const ContactModel& contacts);

// Graphics a < b as a pair of the element of `roleOfA` (a's part in it), I first, or nothing when they are not a
// pair of it. When both orders qualify the pair counts once, with the lower index as I.
std::optional<std::pair<int, int>> orientPair(const GraphicRole& roleOfA, std::span<const GraphicRole> rolesOfB, int a,
                                              int b);

// Calls visit(element, graphicI, graphicJ) for every pair of an element among the overlapping graphics a < b of
// `overlaps` (the broad phase's), oriented by orientPair; graphics on one body never pair.
template <class Visit>
void forEachOrientedPair(const ContactModel& contacts, const std::vector<std::vector<GraphicRole>>& roles,
                         std::span<const std::pair<int, int>> overlaps, Visit&& visit) {
  for (const auto& [a, b] : overlaps) {
    if (contacts.graphics[static_cast<size_t>(a)].body == contacts.graphics[static_cast<size_t>(b)].body) continue;
    for (const GraphicRole& role : roles[static_cast<size_t>(a)]) {
      if (const auto pair = orientPair(role, roles[static_cast<size_t>(b)], a, b)) {
        visit(role.element, pair->first, pair->second);
      }
    }
  }
}

}  // namespace lodestone
