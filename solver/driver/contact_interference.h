// Pairs of contact graphics that overlap where a run starts: said at `lodestone check` (at the deck's positions) and
// in run.log before the first step (after joint assembly), an error when too deep (see kInterferenceErrorFraction).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "elements/contact_step_limit.h"
#include "solver/core/diagnostics.h"
#include "solver/core/model.h"

namespace lodestone {

// "Post_Graphic id=200 (deck.xml:8:1) on Body_Rigid id=2 (deck.xml:7:1) and Post_Graphic id=100 (deck.xml:6:1) on
// ground": both graphics and both bodies, with their deck lines.
std::string describeGraphicPair(const Model& model, const GraphicPair& pair);

// One message per overlapping pair, grouped by Force_Contact, deepest first: each element's first few pairs of each
// kind (errors, then warnings) one by one, the rest of that kind in one summary message. `error` says which kind.
struct InterferenceMessage {
  const ForceContact* element = nullptr;
  std::string text;
  bool error = false;
};
std::vector<InterferenceMessage> describeInterference(const Model& model, std::span<const Interference> found);

// At `lodestone check`: the interference at the deck's positions, as diagnostics at each Force_Contact's line.
void checkInterference(const Model& model, Diagnostics& diagnostics);

}  // namespace lodestone
