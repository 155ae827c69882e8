// Expressions in elements: compiling an attribute's expression with its errors placed in the deck, checking that
// the markers and Reference_Variables it names exist, and the context that evaluates it from the bodies'
// kinematics at run time (Sensor_Event, Reference_Variable and the force elements all read expressions this way).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "elements/body_rigid.h"
#include "elements/control_state_eqn.h"
#include "solver/core/diagnostics.h"
#include "solver/core/model.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct VariableModel;
struct DataModel;
struct ReferenceVariable;
struct ModelSpec;
struct SensorEvaluateValues;

// The expression an attribute holds, compiled; or its error on the element's line with the column inside the
// attribute: `expr="DZ(20) + SINN(TIME)", column 10: unknown function 'SINN'`.
// `contactPoint`: the contact-point symbols (DELTA…) it may read, as Expression::compile has them.
std::optional<Expression> compileAttribute(const std::string& attribute, const std::string& text, const SourceLoc& loc,
                                           Diagnostics& diagnostics, ContactPointSymbols contactPoint = 0);
// The same for an expression of a model being built: PINVAL and POUVAL read the variables the model's plant ports list
// (bindPlantReads, whose errors are the compile's).
std::optional<Expression> compileModelAttribute(const std::string& attribute, const std::string& text,
                                                const SourceLoc& loc, const Model& model, Diagnostics& diagnostics,
                                                ContactPointSymbols contactPoint = 0);

// Whether every marker, every Reference_Variable (in `variables`, which may be null: none), every Control_Diff (that
// DIF and DIF1 name), every plant port (PINVAL and POUVAL, bound by compileModelAttribute), every Force_Contact and
// every Reference_Spline and Reference_Array the expression names exists; each one missing is an error with its
// column: `expr="DX(20, 77)", column 8: names Reference_Marker id=77, which the deck does not have`. So are a spline
// call the data cannot answer (iord on a family of curves) and an ARYVAL the array cannot (n beyond its size, an X,
// Y or U array).
bool checkExpressionReferences(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                               const Model& model, const VariableModel* variables, Diagnostics& diagnostics);
// The same against the model's own variables.
bool checkExpressionReferences(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                               const Model& model, Diagnostics& diagnostics);

// Whether the expression reads accelerations (ACCX…), itself or through the variables it reads.
bool readsAcceleration(const Expression& expression, const VariableModel* variables);

// Whether the expression reads a contact's loads (CONTACT), itself or through the variables it reads.
bool readsContacts(const Expression& expression, const VariableModel* variables);

// The first element-load function (JOINT…, SFORCE…, FX…) the expression calls, itself or else through the variables it
// reads (depth first), and the variable whose expression calls it (null: the expression itself) with the column of the
// VARVAL that leads there.
struct FoundLoadRead {
  LoadRead read;
  const ReferenceVariable* variable = nullptr;
  int variableColumn = 0;
};
std::optional<FoundLoadRead> findLoadRead(const Expression& expression, const VariableModel* variables);
// Whether the expression reads an element's loads (JOINT…, FX…), itself or through the variables it reads.
bool readsLoads(const Expression& expression, const VariableModel* variables);

// For the expressions that feed the equations of motion (a force element's, a contact law's): an element's loads read,
// itself or through a variable, is an error at its column: a joint's or motion's reaction (JOINT, JPRIM, MOTION, FX…)
// is solved for together with the forces, an algebraic loop; a force element's (SFORCE, BUSH…) is computed in the
// same pass. False after reporting one.
bool refuseLoadReads(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                     const VariableModel* variables, Diagnostics& diagnostics);

// Whether every element JOINT, SFORCE… names is in the deck (active or switched off: one switched off reads zero),
// and VFORCE, VTORQ, GFORCE name a Force_Vector of their type (ForceOnly, TorqueOnly, ForceAndTorque); each one
// missing is an error at its column.
bool checkLoadReferences(const Expression& expression, const std::string& attribute, const SourceLoc& loc,
                         const ModelSpec& spec, Diagnostics& diagnostics);

// The moving bodies (indices into Model::bodies) whose state the expression reads: those of the markers it names and
// the I and J bodies of the contacts it reads, itself or through the variables it reads. Appended to `bodies`
// without repeats.
void addBodiesRead(const Expression& expression, const Model& model, std::vector<int>& bodies);

// JOINT, SFORCE…, FX…: the element kind of a deck element name ("Constraint_Joint" → Joint; None for one no function
// reads).
LoadSource loadSourceOfElement(std::string_view element);

// FX…TM(i, j)'s sum over `loads`: the force on marker i and the torque about its origin from every element acting
// between markers i and j (in either order; j = 0: every one acting at i), in forceOnI and torqueOnI.
MarkerLoads loadOnMarker(std::span<const MarkerPairLoad> loads, long markerI, long markerJ);
// Where DIF() and DIF1() find the Control_Diff states (values) and their time derivatives (rates), by the equations'
// order in Model::differentials: kept by the driver, which copies them from the state it evaluates at.
struct DifferentialStates {
  std::vector<double> values, rates;
};

// Where CONTACT() finds the loads of the contacts at the state the context is set to: kept by whoever computed them
// there (the contact evaluator, after its loads at that state).
class ContactMeasures {
 public:
  virtual ~ContactMeasures() = default;
  // The loads of Force_Contact `id`; nothing when the model has no such element.
  virtual std::optional<ContactLoads> contactLoads(long id) const = 0;
};

// Evaluates expressions at given body kinematics: TIME, the markers' motion and VARVAL (a VARSUB variable calls its
// subroutine). A variable is evaluated the
// first time an expression reads it after setState and kept until the next setState, so a variable that many
// elements read costs one evaluation per state. Reading a variable already computed for this state only reads, so
// threads may share that; computing one writes the cache. `model` must outlive the context.
class ModelExpressionContext final : public ExpressionContext {
 public:
  explicit ModelExpressionContext(const Model& model);

  // What expressions read from now on; forgets the variables' values. `contacts` (null: none, CONTACT gives NaN) must
  // hold the contacts' loads at this state for as long as the state is read; `loads` (null: none, JOINT… and FX…
  // give NaN) every joint's, motion's and force element's loads at its markers there.
  void setState(double time, std::span<const BodyKinematics> bodies, const ContactMeasures* contacts = nullptr,
                const std::vector<MarkerPairLoad>* loads = nullptr);

  double time() const override { return time_; }
  MarkerMotion marker(int id) const override;
  // The marker's motion, or nothing when the model has no marker `id` (0 is ground): for subroutines' utilities,
  // whose ids nobody checked.
  std::optional<MarkerMotion> findMarker(int id) const;
  double variable(int id) const override;
  // VARVAL of the variable at `index` in the model's VariableModel (NaN for -1): for readers that found the index once.
  double variableAt(int index) const;
  std::optional<ContactLoads> contact(int id) const override;
  double spline(SplineMethod method, int id, double x, double z, int order) const override;
  double arrayValue(int id, int position) const override;
  std::optional<MarkerLoads> elementLoads(LoadSource source, int id) const override;
  std::optional<MarkerLoads> markerLoads(int markerI, int markerJ) const override;
  std::optional<FrictionMeasures> friction(int id) const override;
  // Where FRICTION reads the joint frictions' measures from now on (null: nowhere, it gives NaN): whoever holds the
  // loads at the state the context is set to keeps them there; must outlive the context's use.
  void setFrictionMeasures(const std::vector<FrictionMeasures>* measures) { frictions_ = measures; }
  double differentialState(int id, bool derivative) const override;
  // Where DIF and DIF1 read from from now on (null: nowhere, they give NaN); must outlive the context's use.
  void setDifferentialStates(const DifferentialStates* states) { differentialStates_ = states; }
  double sensorValue(int id) const override;
  // Where SENVAL reads the Sensor_Evaluate values from now on (null: nowhere, it gives NaN); must outlive the
  // context's use.
  void setSensorEvaluateValues(const SensorEvaluateValues* values) { sensorEvaluateValues_ = values; }
  // A general control system's (its GSESUB's) states' rates and outputs at the state the context is set to and the
  // system's states and inputs now: called once per state and system, as a variable is evaluated. `system` indexes
  // the model's ControlModel; `dflag` is handed to the subroutine of the call that computes them.
  const StateEquationValues& stateEquationValues(int system, bool dflag) const;

 private:
  // Variable `root` and every variable it reads that is not yet computed for this state.
  void computeWithReads(size_t root) const;
  // ARYVAL of a control system's X array (its states) or Y array (its outputs C x + D u, or its GSESUB's); NaN
  // without the states.
  double controlArrayValue(const ControlModel::ArrayOwner& owner, int position) const;
  // The system's states within the differential states, or nothing when they are not there (no states set).
  std::optional<std::span<const double>> controlStates(const ControlSystem& system) const;

  const Model& model_;
  const VariableModel* variables_ = nullptr;
  const DataModel* data_ = nullptr;
  std::unordered_map<long, const Marker*> markers_;
  double time_ = 0;
  std::span<const BodyKinematics> bodies_;
  const ContactMeasures* contacts_ = nullptr;
  const std::vector<MarkerPairLoad>* loads_ = nullptr;
  const DifferentialStates* differentialStates_ = nullptr;
  const SensorEvaluateValues* sensorEvaluateValues_ = nullptr;
  const std::vector<FrictionMeasures>* frictions_ = nullptr;
  mutable std::vector<double> values_;              // per variable, valid when computedIn_ is generation_
  mutable std::vector<std::uint64_t> computedIn_;
  mutable std::vector<size_t> pendingVariables_;  // computeWithReads' stack, kept to reuse its memory
  mutable bool computingVariables_ = false;       // inside computeWithReads (a VARSUB may call it again)
  struct StateEquationCache {
    StateEquationValues values;
    std::vector<double> inputs;
    std::uint64_t computedIn = 0;
  };
  mutable std::vector<StateEquationCache> stateEquations_;  // per control system, as values_ per variable
  std::uint64_t generation_ = 1;
};

}  // namespace lodestone
