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

// Graphics a < b as a pair of `element`, I first, or nothing when they are not a pair of it. When both orders
// qualify the pair counts once, with the lower index as I.
std::optional<std::pair<int, int>> orientPair(std::span<const GraphicRole> rolesOfA, std::span<const GraphicRole> rolesOfB,
                                              int element, int a, int b);

}  // namespace lodestone
