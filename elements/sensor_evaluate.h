// Sensor_Evaluate: an expression (or with type="USERSUB" a SEVSUB) evaluated, and its value stored, each time a
// Sensor_Event that names it (its evaluate_id) fires; expressions read the stored value with SENVAL(id) until the
// next firing. The deck element, its checks, and the model's evaluates; the driver keeps the stored values
// (SensorEvaluateValues).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugins/element_subroutine.h"
#include "solver/core/diagnostics.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct SensorEvaluateSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  std::optional<std::string> expr;
  SubroutineAttributeValues subroutine;  // type="USERSUB": SEVSUB
};

const ElementSchema<SensorEvaluateSpec>& sensorEvaluateSchema();
// type="EXPRESSION" needs expr, which compiles (errors point at its column); USERSUB names its SEVSUB.
void checkSensorEvaluate(const SensorEvaluateSpec& spec, Diagnostics& diagnostics);

struct SensorEvaluate {
  long id = 0;
  SourceLoc loc;
  Expression expression;
  std::optional<ElementSubroutine> subroutine;  // SEVSUB, set up, in place of the expression
};

struct SensorEvaluateModel {
  std::vector<SensorEvaluate> evaluates;  // in deck order
  bool usesAcceleration = false;          // some expression reads ACCX… or WDTX…
  bool readsContacts = false;             // some expression reads a contact's loads (CONTACT)
  bool readsLoads = false;                // some expression reads an element's loads (JOINT…, FX…)
  // The index of Sensor_Evaluate `id` in `evaluates`; -1 if the deck has none.
  int indexOf(long id) const;
};

// The deck's evaluates with their expressions compiled; their references are checked once the variables are built
// (checkSensorEvaluateReferences), since variables may read SENVAL and evaluates VARVAL.
std::shared_ptr<SensorEvaluateModel> buildSensorEvaluateModel(const std::vector<SensorEvaluateSpec>& specs,
                                                              const Model& model, Diagnostics& diagnostics);
// Each expression's markers, variables, evaluates… exist, and each SEVSUB is loaded and set up (it may read
// variables, built by then); which of the expensive inputs they read.
void checkSensorEvaluateReferences(SensorEvaluateModel& evaluates, const std::vector<SensorEvaluateSpec>& specs,
                                   const Model& model, Diagnostics& diagnostics);

// The values SENVAL reads, by index in SensorEvaluateModel::evaluates: 0 until a firing stores one. Kept by the
// driver for a whole run (every Simulate of a deck), read by every expression context it sets them on.
struct SensorEvaluateValues {
  std::vector<double> values;
};

}  // namespace lodestone
