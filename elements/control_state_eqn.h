// Control_StateEqn: a linear dynamic system ẋ = A x + B u, y = C x + D u whose states x the integrator carries
// beside the bodies' (after the Control_Diff states), whose inputs u are the Reference_Variables of a U array, and
// whose states and outputs ARYVAL reads through its X and Y arrays. Control_SISO (control_siso.h) is built into the
// same ControlSystem. The deck element, its checks, and the model's systems.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "solver/core/diagnostics.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct ReferenceArraySpec;
struct ReferenceMatrixSpec;
struct ControlSisoSpec;
struct VariableModel;

struct ControlStateEqnSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;  // LINEAR or USERSUB
  std::optional<long> x_array_id, u_array_id, y_array_id, ic_array_id;
  std::optional<long> a_matrix_id, b_matrix_id, c_matrix_id, d_matrix_id;
  std::optional<int> num_state, num_output;
  bool is_static_hold = false;
  // The USERSUB form's attributes (usrsub_dll_name…, usrsub_der1_name…), by name: kept to name the subroutine in
  // the refusal, since Lodestone cannot call GSE subroutines yet.
  std::vector<std::pair<std::string, std::string>> subroutineAttributes;
};

const ElementSchema<ControlStateEqnSpec>& controlStateEqnSchema();
// type="LINEAR" names its X array and its A matrix; USERSUB (GSE subroutines) is refused.
void checkControlStateEqn(const ControlStateEqnSpec& spec, Diagnostics& diagnostics);

// One linear system of the model, from a Control_StateEqn or a Control_SISO.
struct ControlSystem {
  long id = 0;
  SourceLoc loc;
  std::string element;  // "Control_StateEqn" or "Control_SISO", for messages
  Eigen::MatrixXd a, b, c, d;  // n×n, n×m, p×n, p×m (m inputs, p outputs; B and D have m columns even when m = 0)
  Eigen::VectorXd initialState;
  std::vector<int> inputVariables;  // ids of the U array's Reference_Variables, in order (m of them)
  // Their indices in the model's VariableModel, found once the variables exist (resolveControlInputs): what the
  // residual and ARYVAL of a Y array read at every evaluation, without looking an id up.
  std::vector<int> inputIndices;
  long xArray = 0, yArray = 0;      // 0: none
  int stateOffset = 0;              // first of its states within the block of all systems' states
  bool hasFeedThrough = false;      // D ≠ 0: an output reads the inputs at the same instant

  int stateCount() const { return static_cast<int>(a.rows()); }
  int outputCount() const { return static_cast<int>(c.rows()); }
};

struct ControlModel {
  std::vector<ControlSystem> systems;  // deck order: Control_StateEqn first, then Control_SISO
  int stateCount = 0;                  // all systems' states
  // An X or Y array's owner: the system's index, and whether the array holds its outputs (Y) or its states (X).
  struct ArrayOwner {
    int system = -1;
    bool outputs = false;
  };
  std::map<long, ArrayOwner> arrayOwners;

  const ArrayOwner* ownerOf(long arrayId) const;
};

// The systems, their matrices and arrays checked against each other (sizes, types, one owner per X or Y array):
// each problem an error on the element's line. Never null.
std::shared_ptr<ControlModel> buildControlModel(const std::vector<ControlStateEqnSpec>& stateEquations,
                                                const std::vector<ControlSisoSpec>& sisos,
                                                const std::vector<ReferenceMatrixSpec>& matrices,
                                                const std::vector<ReferenceArraySpec>& arrays,
                                                Diagnostics& diagnostics);
// Once the variables exist: each system's inputIndices, and the checks that every input is a Reference_Variable of
// the deck whose expression reads neither accelerations nor loads (the states' rows are evaluated from positions and
// velocities alone, as a Control_Diff's), and that no output with feed-through reads itself through its inputs (an
// algebraic loop).
void resolveControlInputs(ControlModel& controls, const Model& model, Diagnostics& diagnostics);

// An output with feed-through (D ≠ 0) reads its system's inputs at the same instant: the moving bodies those inputs
// read, for every such output `expression` reads through ARYVAL (itself or through the variables it reads, and on
// through the inputs' own outputs). Appended to `bodies` without repeats (addBodiesRead gives the direct reads).
void addBodiesReadThroughOutputs(const Expression& expression, const Model& model, std::vector<int>& bodies);

}  // namespace lodestone
