// Sensor_Event: a condition on an expression (expr compared with value; with type="USERSUB", the value a SENSUB
// returns) that IDAS locates in time as a root, and what the run does when it happens (halt, return, print, a new
// output step or step limit). The deck element and its checks, the sensors of a model, and their evaluation from the
// bodies' kinematics.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "elements/body_rigid.h"
#include "elements/expression_context.h"
#include "plugins/element_subroutine.h"
#include "elements/sensor_evaluate.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct SensorEventSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  std::optional<std::string> expr;
  std::string compare;
  double value = 0;
  double error_tol = 1e-3;
  bool halt = false, returns = false, print = false, restart = false, verbose = false;
  bool zero_crossing = true;
  bool active = true;
  std::optional<double> dt, hmax, stepsize;
  SubroutineAttributeValues subroutine;  // type="USERSUB": SENSUB
  std::optional<long> evaluate_id;  // the Sensor_Evaluate whose value a firing stores (SENVAL)
};

const ElementSchema<SensorEventSpec>& sensorEventSchema();
// The expression compiles (errors point at its column); a USERSUB sensor names its SENSUB.
void checkSensorEvent(const SensorEventSpec& spec, Diagnostics& diagnostics);

// ---- the sensors of a model -----------------------------------------------------------------------------------

// How the expression is compared with the value; the sensor acts when the comparison becomes true by a crossing:
// GE when expr rises to value, LT when it falls below it, EQ on either.
enum class SensorCompare { GreaterOrEqual, LessThan, Equal };

struct SensorEvent {
  long id = 0;
  SourceLoc loc;
  Expression expression;
  SensorCompare compare = SensorCompare::Equal;
  double value = 0;
  double errorTol = 1e-3;
  bool halt = false, returns = false, print = false, restart = false, verbose = false;
  bool zeroCrossing = true;
  std::optional<double> dt, hmax, stepsize;
  std::optional<ElementSubroutine> subroutine;  // SENSUB, set up, in place of the expression
  int evaluate = -1;  // index in Model::sensorEvaluates of the Sensor_Evaluate a firing stores; -1: none
};

struct SensorModel {
  std::vector<SensorEvent> sensors;  // the active ones
  bool usesAcceleration = false;     // some expression reads ACCX… or WDTX…
  bool readsContacts = false;        // some expression reads a contact's loads (CONTACT)
  bool readsLoads = false;           // some expression reads an element's loads (JOINT…, FX…)
};

// The active sensors of a deck, their expressions checked against the model's markers.
std::shared_ptr<const SensorModel> buildSensorModel(const std::vector<SensorEventSpec>& specs, const Model& model,
                                                    Diagnostics& diagnostics);

// "Sensor_Event id=41 (deck.xml:12:3)"
std::string describeSensor(const SensorEvent& sensor);
// "GE", "LT", "EQ"
const char* compareKeyword(SensorCompare compare);

// Evaluates sensor expressions at given body kinematics (accelerations included when the expressions need them).
class SensorEvaluator {
 public:
  // `model` must outlive the evaluator.
  explicit SensorEvaluator(const Model& model);

  bool empty() const { return !sensors_ || sensors_->sensors.empty(); }
  const std::vector<SensorEvent>& sensors() const;
  bool usesAcceleration() const { return sensors_ && sensors_->usesAcceleration; }
  // Whether some sensor reads a contact's loads (CONTACT): the evaluator's contacts must then hold them at the state
  // each value is asked at.
  bool readsContacts() const { return sensors_ && sensors_->readsContacts; }
  // Where CONTACT() finds the contacts' loads (`contacts` must outlive the evaluator; null: nowhere, NaN).
  void setContacts(const ContactMeasures* contacts) { contacts_ = contacts; }
  // Whether some sensor reads an element's loads (JOINT…, FX…): `loads` must then hold every joint's, motion's and
  // force element's loads at their markers at the state each value is asked at (null: nowhere, NaN).
  bool readsLoads() const { return sensors_ && sensors_->readsLoads; }
  void setLoads(const std::vector<MarkerPairLoad>* loads) { loads_ = loads; }
  // Where DIF and DIF1 in its expressions read the Control_Diff states (ModelExpressionContext).
  void setDifferentialStates(const DifferentialStates* states) { context_.setDifferentialStates(states); }
  // Where FRICTION reads the joint frictions' measures, kept with the loads (null: nowhere, NaN).
  void setFrictionMeasures(const std::vector<FrictionMeasures>* measures) { context_.setFrictionMeasures(measures); }
  // Where SENVAL in its expressions reads the Sensor_Evaluate values (ModelExpressionContext).
  void setSensorEvaluateValues(const SensorEvaluateValues* values) { context_.setSensorEvaluateValues(values); }

  // The expression of sensor `index` at `time`, for bodies at `bodies`.
  double value(int index, double time, std::span<const BodyKinematics> bodies);
  // The expression of Sensor_Evaluate `evaluate` (index in Model::sensorEvaluates) at `time`, for bodies at `bodies`.
  double evaluateValue(int evaluate, double time, std::span<const BodyKinematics> bodies);
  // Root functions of the sensors located by zero crossing, in order: expr − value.
  int rootCount() const { return static_cast<int>(rootSensors_.size()); }
  void rootFunctions(double time, std::span<const BodyKinematics> bodies, double* g);
  // The sensor of root function `root`.
  int sensorOfRoot(int root) const { return rootSensors_[static_cast<size_t>(root)]; }
  // IDAS's direction per root function: +1 rising (GE), −1 falling (LT), 0 either (EQ).
  void rootDirections(int* directions) const;
  // Whether sensor `index`'s condition holds (for sensors checked after each step, without zero crossing): the
  // expression is on the triggering side of value, within error_tol for EQ.
  bool conditionHolds(int index, double expressionValue) const;

 private:
  const Model& model_;
  ModelExpressionContext context_;
  const SensorModel* sensors_ = nullptr;
  const ContactMeasures* contacts_ = nullptr;
  const std::vector<MarkerPairLoad>* loads_ = nullptr;
  std::vector<int> rootSensors_;
};

}  // namespace lodestone
