// The state vector's layout: 13 values per moving body, in model order.
#include "state_layout.h"

#include <algorithm>
#include <array>

#include "elements/control_diff.h"
#include "elements/control_state_eqn.h"

namespace lodestone {

namespace {
int controlDiffCount(const Model& model) {
  return model.differentials ? static_cast<int>(model.differentials->equations.size()) : 0;
}
// The Control_Diff states, then the control systems' (Control_StateEqn, Control_SISO), in one block.
int differentialEquationCount(const Model& model) {
  return controlDiffCount(model) + (model.controls ? model.controls->stateCount : 0);
}
}  // namespace

StateLayout::StateLayout(const Model& model, int multiplierCount, int motionStateCount)
    : bodyCount_(static_cast<int>(model.bodies.size())),
      size_(bodyCount_ * body_state::kSize + multiplierCount + motionStateCount + differentialEquationCount(model)),
      multiplierCount_(multiplierCount),
      differentialOffset_(bodyCount_ * body_state::kSize + multiplierCount + motionStateCount),
      differentialCount_(differentialEquationCount(model)),
      differential_(static_cast<size_t>(size_), 1.0) {
  const auto firstMultiplier = differential_.begin() + bodyCount_ * body_state::kSize;
  std::fill(firstMultiplier, firstMultiplier + multiplierCount, 0.0);
  for (int k = 0; k < controlDiffCount(model); ++k) {
    const ControlDiff& equation = model.differentials->equations[static_cast<size_t>(k)];
    const std::vector<int>& rates = equation.expression.differentialRateIds();
    const bool readsOwnRate = std::find(rates.begin(), rates.end(), equation.id) != rates.end();
    if (equation.implicit && !readsOwnRate) differential_[static_cast<size_t>(differentialOffset_ + k)] = 0.0;
  }
}

int StateLayout::bodyOfVariable(int index) const {
  if (index < 0 || index >= bodyCount_ * body_state::kSize) return -1;
  return index / body_state::kSize;
}

std::string describeBody(const RigidBody& body) {
  std::string text = std::string(body.element()) + " id=" + std::to_string(body.id);
  if (!body.label.empty()) text += " \"" + body.label + "\"";
  if (!body.loc.file.empty() || body.loc.line > 0) text += " (" + body.loc.position() + ")";
  return text;
}

std::string StateLayout::describeVariable(const Model& model, int index) const {
  static const std::array<const char*, body_state::kSize> kNames = {
      "CG position x", "CG position y", "CG position z",
      "Euler parameter e0", "Euler parameter e1", "Euler parameter e2", "Euler parameter e3",
      "CG velocity vx", "CG velocity vy", "CG velocity vz",
      "angular velocity wx (body axes)", "angular velocity wy (body axes)", "angular velocity wz (body axes)"};
  const int body = bodyOfVariable(index);
  const int controlDiffs = controlDiffCount(model);
  if (index >= differentialOffset_ + controlDiffs && index < differentialOffset_ + differentialCount_) {
    const int state = index - differentialOffset_ - controlDiffs;
    for (const ControlSystem& system : model.controls->systems) {
      if (state < system.stateOffset || state >= system.stateOffset + system.stateCount()) continue;
      return system.element + " id=" + std::to_string(system.id) + " (" + system.loc.position() + "), state " +
             std::to_string(state - system.stateOffset + 1);
    }
  }
  if (index >= differentialOffset_ && index < differentialOffset_ + differentialCount_) {
    const ControlDiff& equation = model.differentials->equations[static_cast<size_t>(index - differentialOffset_)];
    return "Control_Diff id=" + std::to_string(equation.id) + " (" + equation.loc.position() + "), its state";
  }
  if (body < 0) return "state entry " + std::to_string(index);
  return describeBody(model.bodies[static_cast<size_t>(body)]) + ", " + kNames[static_cast<size_t>(index % body_state::kSize)];
}

}  // namespace lodestone
