// Interference at the start: which pairs overlap, how deep against what their element allows, in words.
#include "contact_interference.h"

#include <map>

#include "elements/body_rigid.h"
#include "elements/constraint_joint.h"
#include "solver/core/text.h"
#include "solver/output/number_format.h"
#include "state_layout.h"

namespace lodestone {

namespace {

// Pairs of one kind listed one by one per element before the rest are summed up (a pile starts with hundreds).
constexpr size_t kListedPairs = 5;

std::string describeGraphic(const Model& model, int index) {
  const ContactGraphic& graphic = model.contacts->graphics[static_cast<size_t>(index)];
  return "Post_Graphic id=" + std::to_string(graphic.id) + " (" + graphic.loc.position() + ") on " +
         (graphic.body < 0 ? std::string("ground") : describeBody(model.bodies[static_cast<size_t>(graphic.body)]));
}

std::string percent(double part) { return formatSignificant(100 * part, 2) + "%"; }

std::string describeOne(const Model& model, const Interference& overlap) {
  std::string text = describeGraphicPair(model, overlap.pair) + " overlap by " + scientific(overlap.depth, 3) +
                     " at the start, " + percent(overlap.depth / overlap.thinnerExtent) +
                     " of the thinner graphic (" + scientific(overlap.thinnerExtent, 3) + " across)";
  const ForceContact& element = model.contacts->elements[static_cast<size_t>(overlap.pair.element)];
  if (!overlap.error()) {
    return text + ": the contact starts pressed in, its law acting from the first instant (meant as a preload? "
                  "otherwise move the bodies apart by that much)";
  }
  if (overlap.depth > element.options.ignoreDeeperThan) {
    return text + ", deeper than ignore_penetration_larger_than = " + scientific(element.options.ignoreDeeperThan, 3) +
           ": the pair would exert no force and the bodies would stay inside each other. Move them apart";
  }
  return text + ", more than the " + percent(kInterferenceErrorFraction) +
         " a start may overlap: the contact would start with a force far beyond the model's loads and fling the "
         "bodies apart. Move them apart";
}

}  // namespace

std::string describeGraphicPair(const Model& model, const GraphicPair& pair) {
  return describeGraphic(model, pair.graphicI) + " and " + describeGraphic(model, pair.graphicJ);
}

std::vector<InterferenceMessage> describeInterference(const Model& model, std::span<const Interference> found) {
  std::vector<InterferenceMessage> messages;
  // Per element and kind, in the order found (deepest first).
  std::map<std::pair<int, bool>, std::vector<const Interference*>> groups;
  for (const Interference& overlap : found) groups[{overlap.pair.element, !overlap.error()}].push_back(&overlap);
  for (const auto& [key, overlaps] : groups) {
    const ForceContact* element = &model.contacts->elements[static_cast<size_t>(key.first)];
    const bool error = !key.second;
    for (size_t k = 0; k < overlaps.size() && k < kListedPairs; ++k) {
      messages.push_back({element, describeOne(model, *overlaps[k]), error});
    }
    if (overlaps.size() <= kListedPairs) continue;
    const Interference& shallowest = *overlaps.back();
    messages.push_back({element,
                        std::to_string(overlaps.size() - kListedPairs) + " more pairs overlap at the start" +
                            (error ? " more than allowed" : ", each less than allowed") + ", from " +
                            scientific(overlaps[kListedPairs]->depth, 3) + " down to " +
                            scientific(shallowest.depth, 3) + " deep",
                        error});
  }
  return messages;
}

void checkInterference(const Model& model, Diagnostics& diagnostics) {
  if (!model.contacts || model.contacts->elements.empty()) return;
  std::vector<BodyKinematics> bodies(model.bodies.size());
  for (size_t b = 0; b < model.bodies.size(); ++b) {
    bodies[b].position = model.bodies[b].position;
    bodies[b].rotation = rotationFromEulerParameters(model.bodies[b].eulerParameters.normalized());
  }
  const std::vector<Interference> found = findInterference(model, bodies);
  for (const InterferenceMessage& message : describeInterference(model, found)) {
    const bool joints = model.constraints && !model.constraints->joints.empty();
    const std::string text = message.text + (joints ? " (at the deck's positions, before the joints are "
                                                                   "assembled)." : ".");
    if (message.error) diagnostics.error(message.element->loc, text);
    else diagnostics.warning(message.element->loc, text);
  }
}

}  // namespace lodestone
