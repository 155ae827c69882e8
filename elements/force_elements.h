// The force elements with a law of their own — Force_Scalar_TwoBody, Force_Scalar_OneBody, Force_Vector_TwoBody,
// Force_Vector_OneBody, Force_SpringDamper, Force_Bushing, Force_Beam, Force_Field, each pair of permanent
// Force_Magnets, and all the magnets together when some are soft — as a model holds them, their evaluation at run
// time, and their element types for Deactivate and Activate. Each element's attributes and law are in its own file.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "elements/body_rigid.h"
#include "elements/expression_context.h"
#include "elements/force_bushing.h"
#include "elements/force_beam.h"
#include "elements/force_field.h"
#include "elements/force_law.h"
#include "elements/force_magnet.h"
#include "elements/force_scalar_two_body.h"
#include "elements/force_scalar_one_body.h"
#include "elements/force_spring_damper.h"
#include "elements/force_vector.h"
#include "elements/subroutine_state.h"
#include "solver/core/model.h"

namespace lodestone {

struct ModelSpec;
struct ModifyCommand;
struct ActivationSpec;

struct ForceElement {
  SourceLoc loc;  // the element's name, id and place in the deck
  ForceConnection connection;
  std::variant<ScalarForce, VectorForce, SpringDamper, Bushing, Beam, ForceField, MagnetPair, InducedMagnets> law;
  LoadSource source = loadSourceOfElement(loc.element);  // what SFORCE, BUSH… call it; None for magnets
};

struct ForceModel {
  std::vector<ForceElement> elements;  // the active ones, in deck order by element type
};

// The deck's active force elements on a model whose bodies, markers and variables are built. Never null.
std::shared_ptr<const ForceModel> buildForceModel(const ModelSpec& spec, const Model& model, Diagnostics& diagnostics);

// "Force_Bushing id=7 (deck.xml:12:3)": how run-time messages name a force element.
std::string describeForce(const ForceElement& element);

// The force elements' terms of the energy balance at one state (energy.csv).
struct ForceEnergy {
  double strain = 0;        // elastic energy stored by springs and bushings
  double dashpotPower = 0;  // dissipated by their damping (≥ 0)
  double appliedPower = 0;  // power of the elements without a potential (expressions) on the bodies
  double fieldPower = 0;    // power of the magnets' fields on the bodies
};

// One element's loads on its bodies, torques about their CGs: I and J's, or, for a law over many bodies, one per body
// of its connection's bodiesLoaded, in that order.
struct ElementLoads {
  TwoBodyLoads pair;
  std::vector<BodyLoad> onBodies;
};

// Numerical trouble an element met in addLoads (ElementAction::trouble), for run.log.
struct ForceMessage {
  const ForceElement* element = nullptr;
  double time = 0;
  std::string text;
};

// Evaluates the force elements at given body kinematics. Keeps, between evaluations, what a law needs to remember
// (a rotational spring's whole turns). `model` must outlive the evaluator.
class ForceEvaluator {
 public:
  explicit ForceEvaluator(const Model& model);

  bool empty() const { return elements().empty(); }
  const std::vector<ForceElement>& elements() const;
  // Whether some element reads contacts' loads (CONTACT; ForceConnection::readsContacts).
  bool readsContacts() const { return readsContacts_; }
  // Where such elements find the loads: whoever evaluates the forces has the contacts evaluated at the same state
  // first. Null (the default): CONTACT gives NaN. `contacts` must outlive the evaluator.
  void setContactMeasures(const ContactMeasures* contacts) { contactMeasures_ = contacts; }
  // Where DIF and DIF1 in its expressions read the Control_Diff states (ModelExpressionContext).
  void setDifferentialStates(const DifferentialStates* states) { context_.setDifferentialStates(states); }
  // Where SENVAL in its expressions reads the Sensor_Evaluate values (ModelExpressionContext).
  void setSensorEvaluateValues(const SensorEvaluateValues* values) { context_.setSensorEvaluateValues(values); }

  // Adds the loads of every element at `time` to the loads of its bodies.
  void addLoads(double time, std::span<const BodyKinematics> bodies, std::span<BodyLoad> loads);
  // The loads of element `index` alone, as the Jacobian differences them: a magnet pair reuses the method and
  // quadrature panels of the latest addLoads (MagnetPairPlan), so that the differences see one smooth function.
  ElementLoads elementLoads(int index, double time, std::span<const BodyKinematics> bodies);
  // Per element: for a far magnet pair, a bound on its stiffness over its bodies' inertia (farMagnetPairCoupling);
  // none for every other element, which the Jacobian always differences.
  std::vector<std::optional<double>> farCouplings(double time, std::span<const BodyKinematics> bodies);
  // Whether element `index`'s loads and their derivatives are all 0 at `time`, whatever the bodies' states near
  // these: the induced magnets with every permanent magnet switched off (inducedMagnetsSwitchedOff). The Jacobian
  // skips such an element.
  bool switchedOff(int index, double time, std::span<const BodyKinematics> bodies);
  // Every element's loads at its markers at `time`, appended to `loads` (requests' MARKER_FORCE).
  void markerLoads(double time, std::span<const BodyKinematics> bodies, std::vector<MarkerPairLoad>& loads);
  // The energy balance's terms of every element at `time`.
  ForceEnergy energy(double time, std::span<const BodyKinematics> bodies);
  // The latest element whose loads were not finite in addLoads (a NaN from an expression), and the time it was;
  // null if none has been. Kept until another is, since a run usually fails some steps after the NaN first came
  // (IDAS retries smaller steps until it cannot go on).
  const ForceElement* lastNonFinite() const;
  double lastNonFiniteTime() const { return lastNonFiniteTime_; }
  // The trouble met in addLoads since the last call, at most one message per element (the first).
  std::vector<ForceMessage> takeMessages();

 private:
  // The context must hold the state already.
  ElementLoads evaluate(size_t index, std::span<const BodyKinematics> bodies);
  ElementAction act(size_t index);

  const Model* model_ = nullptr;
  ModelExpressionContext context_;
  ContextSubroutineState subroutineState_{*model_, context_};  // what SFOSUB, VFOSUB… read
  bool differencing_ = false;                                  // in elementLoads: the subroutines' dflag
  const ContactMeasures* contactMeasures_ = nullptr;
  bool readsContacts_ = false;
  const ForceModel* forces_ = nullptr;
  std::vector<double> angles_;  // per element: a rotational spring's angle at its latest evaluation (NaN: none yet)
  std::vector<MagnetPairPlan> magnetPlans_;  // per element: a magnet pair's method and panels, for elementLoads
  bool reuseMagnetPlans_ = false;
  std::string trouble_;  // of the latest evaluate()
  std::vector<ForceMessage> messages_;
  int lastNonFinite_ = -1;
  double lastNonFiniteTime_ = 0;
};

// ---- Deactivate and Activate ------------------------------------------------------------------------------------
// MotionSolve's element types for these elements: SFORCE (Force_Scalar_*), GFORCE, VFORCE and VTORQUE
// (Force_Vector_*), BUSH (Force_Bushing), BEAM (Force_Beam), FIELD (Force_Field), SPDP (Force_SpringDamper;
// SPRINGDAMPER, Adams' name, too) and FORCE, "all action forces": every one of these elements with the id (ours:
// FORCE does not switch a Force_Contact, which has CONTACT, nor gravity, which has no id). GFORCE, VFORCE and
// VTORQUE each switch a Force_Vector_* of any type.

bool isForceActivationType(const std::string& elementType);
// The deck names of the elements a force element type may name.
std::vector<std::string> forceActivationTargets(const std::string& elementType);
// The command that sets the `active` flag of every element of those kinds with the command's id.
ModifyCommand forceActivationCommand(const ActivationSpec& spec, bool active);

}  // namespace lodestone
