// Force_Field (Adams FIELD, linear form): a six-component force and torque between markers I and J from a full 6×6
// stiffness matrix and a full 6×6 damping matrix, with reference lengths and preloads. The deck element, its checks,
// and its law; the kinematics are the six-component elements' own (elements/force_law: relativeDeflection), shared
// with Force_Bushing (a diagonal field) and Force_Beam (a field whose matrix comes from a section).
//
// With every vector in J's axes — q = [DX DY DZ](I,J,J) and I's rotation from J, [AX AY AZ](I,J); q̇ their rates
// seen from J; L = [length_x … length_tz]; F0 = [preload_x … preload_tz] —
//   [F; T] = −K·(q − L) − C·q̇ + F0,   K = [Kij], C = [Cij], i the row (force component), j the column (deflection)
// F and T act on I (F at I's origin); J carries −F and −T − δ × F, δ = p_I − p_J. K and C need not be symmetric
// (Adams: a FIELD's matrices may be non-symmetric); nothing checks them to be definite.
// The nonlinear form: with a library or script, [F; T] = FIESUB(q, q̇), the subroutine handed the deflection and its
// rate (lengths, preloads and matrices are not used then); its partial derivatives are not read, the field is
// differenced as any force is.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "elements/force_law.h"
#include "plugins/element_subroutine.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ForceFieldSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long i_marker_id = 0, j_marker_id = 0;
  std::array<double, 36> stiffness{};  // K11, K12, … K66: row by row
  std::array<double, 36> damping{};    // C11 … C66
  std::array<double, 6> length{};      // length_x, _y, _z, _tx, _ty, _tz
  std::array<double, 6> preload{};     // preload_x … preload_tz
  bool active = true;                  // false after <Deactivate element_type="FIELD"> (or FORCE)
  SubroutineAttributeValues subroutine;  // FIESUB, in place of the matrices
};

const ElementSchema<ForceFieldSpec>& forceFieldSchema();
// Warns about a field whose matrices and preloads are all 0: it would exert nothing; with a FIESUB, that they are
// not used.
void checkForceField(const ForceFieldSpec& spec, Diagnostics& diagnostics);

struct ForceField {
  long iMarker = 0, jMarker = 0;
  Matrix6 stiffness = Matrix6::Zero(), damping = Matrix6::Zero();
  Vector6 length = Vector6::Zero(), preload = Vector6::Zero();
  bool symmetric = false;  // K = Kᵀ: the field has a potential (its strain); decided once, when it is built
  std::optional<ElementSubroutine> subroutine;  // FIESUB, set up
};

// The field, or nothing after an error: I and J on the same body (the field would load nothing).
std::optional<ForceField> buildField(const ForceFieldSpec& spec, const Model& model, ForceConnection& connection,
                                     Diagnostics& diagnostics);

// `state`, `differencing`: what a FIESUB reads, and whether the Jacobian is being differenced (its dflag).
ElementAction fieldAction(const ForceField& field, const ExpressionContext& context, const SubroutineState* state,
                          bool differencing);

}  // namespace lodestone
