// Where each model quantity lives in the integrator's state vector, and which model object owns each entry —
// so a failing equation can be reported as "Body_Rigid id=3 (deck.xml:12), angular velocity wx", never only
// as an index.
#pragma once

#include <string>
#include <vector>

#include "elements/body_rigid.h"
#include "solver/core/model.h"

namespace lodestone {

class StateLayout {
 public:
  // `multiplierCount` joint multipliers follow the bodies' states, then `motionStateCount` motion states, then one
  // state per Control_Diff (model.differentials, in deck order), then the control systems' states (model.controls).
  explicit StateLayout(const Model& model, int multiplierCount = 0, int motionStateCount = 0);

  int size() const { return size_; }
  int bodyCount() const { return bodyCount_; }
  // First of body `body`'s 13 values (see body_state:: for their order).
  int bodyOffset(int body) const { return body * body_state::kSize; }
  int eulerParameterOffset(int body) const { return bodyOffset(body) + body_state::kEulerParameters; }
  int bodyStateSize() const { return bodyCount_ * body_state::kSize; }
  int multiplierCount() const { return multiplierCount_; }
  // The Control_Diff states and after them the control systems': `differentialCount()` in all from
  // `differentialOffset()`.
  int differentialOffset() const { return differentialOffset_; }
  int differentialCount() const { return differentialCount_; }

  // 1 for a differential variable, 0 for an algebraic one (IDASetId). Every body variable is differential; the
  // joints' multipliers are algebraic, and so is the state of an implicit Control_Diff whose residual does not read
  // its own DIF1 (it then only fixes the state's value).
  const std::vector<double>& differentialMask() const { return differential_; }

  // The moving body that owns state entry `index`, or -1 when no body does.
  int bodyOfVariable(int index) const;
  // "Body_Rigid id=3 (deck.xml:12:3), angular velocity wx (body axes)"; "state entry 40" for a multiplier (the
  // MultibodySystem names those).
  std::string describeVariable(const Model& model, int index) const;

 private:
  int bodyCount_ = 0;
  int size_ = 0;
  int multiplierCount_ = 0;
  int differentialOffset_ = 0;
  int differentialCount_ = 0;
  std::vector<double> differential_;
};

// "Body_Rigid id=3 (deck.xml:12:3)": how every run-time message names a body.
std::string describeBody(const RigidBody& body);

}  // namespace lodestone
