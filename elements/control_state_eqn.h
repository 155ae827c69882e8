// Control_StateEqn: a dynamic system whose states x the integrator carries beside the bodies' (after the Control_Diff
// states), whose inputs u are the Reference_Variables of a U array, and whose states and outputs ARYVAL reads through
// its X and Y arrays: linear, ẋ = A x + B u, y = C x + D u (type="LINEAR"), or general, ẋ = f(t, x, u),
// y = g(t, x, u) given by a GSESUB (type="USERSUB"). Control_SISO (control_siso.h) is built into the same
// ControlSystem. The deck element, its checks, and the model's systems.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "plugins/element_subroutine.h"
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
  SubroutineAttributeValues subroutine;  // type="USERSUB": GSESUB
  // MotionSolve's partial derivatives of a GSESUB (GSEXX, GSEXU, GSEYX, GSEYU) and the co-simulation attributes
  // (fmu_communication_interval, ip_address), by name: never used, each said so.
  std::vector<std::pair<std::string, std::string>> unusedAttributes;
};

const ElementSchema<ControlStateEqnSpec>& controlStateEqnSchema();
// type="LINEAR" names its X array and its A matrix; type="USERSUB" its GSESUB and num_state (with an X array when
// there are states).
void checkControlStateEqn(const ControlStateEqnSpec& spec, Diagnostics& diagnostics);

// One system of the model, from a Control_StateEqn or a Control_SISO: linear (its matrices), or a GSESUB's.
struct ControlSystem {
  long id = 0;
  SourceLoc loc;
  std::string element;  // "Control_StateEqn" or "Control_SISO", for messages
  int states = 0, outputs = 0;  // n and p
  // Linear: n×n, n×m, p×n, p×m (m inputs; B and D have m columns even when m = 0). Empty with a GSESUB.
  Eigen::MatrixXd a, b, c, d;
  // type="USERSUB": the GSESUB that gives ẋ and y, loaded and set up once the variables exist
  // (setUpStateEquationSubroutines); until then, and under `check`, nothing.
  std::optional<ElementSubroutine> subroutine;
  bool general = false;  // type="USERSUB": ẋ and y come from the subroutine
  Eigen::VectorXd initialState;
  std::vector<int> inputVariables;  // ids of the U array's Reference_Variables, in order (m of them)
  // Their indices in the model's VariableModel, found once the variables exist (resolveControlInputs): what the
  // residual and ARYVAL of a Y array read at every evaluation, without looking an id up.
  std::vector<int> inputIndices;
  long xArray = 0, yArray = 0;      // 0: none
  int stateOffset = 0;              // first of its states within the block of all systems' states
  // An output reads the inputs at the same instant: D ≠ 0, or a GSESUB with outputs (which may read them).
  bool hasFeedThrough = false;

  int stateCount() const { return states; }
  int outputCount() const { return outputs; }
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
// Once the variables exist: each general system's GSESUB loaded and set up (`run`; `check` runs no user code), on the
// element's line when it cannot be. Before resolveControlInputs, which checks what it reads.
void setUpStateEquationSubroutines(ControlModel& controls, const std::vector<ControlStateEqnSpec>& specs,
                                   const Model& model, Diagnostics& diagnostics);
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
