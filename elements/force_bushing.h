// Force_Bushing (Adams BUSHING): a linear six-component spring and damper between markers I and J, resolved in
// J's axes. The deck element, its checks, and its law.
//
// With every vector in J's axes — d = [DX DY DZ](I,J,J), the displacement of I's origin from J's; v = [VX VY VZ]
// (I,J,J,J), its rate seen from J; a = [AX AY AZ](I,J), the rotation of I's axes relative to J's; w = [WX WY WZ]
// (I,J,J), the angular velocity of I relative to J —
//   F = −K·d − C·v + [preload_x preload_y preload_z],   K = diag(kx ky kz),    C = diag(cx cy cz)
//   T = −Kt·a − Ct·w + [preload_tx preload_ty preload_tz], Kt = diag(ktx kty ktz), Ct = diag(ctx cty ctz)
// F and T act on I (F at I's origin). The reaction on J is −F and −T − δ × F, δ = p_I − p_J (the force's moment arm
// once the bushing deforms): the same as −F acting at I's origin on J's body, which is how it is applied.
// Adams calls a, b, c "projected small-angle rotational displacements"; we take AX, AY, AZ(I,J) (ours), which agree
// with any other small-angle measure to first order and are exact for a rotation about one of J's axes.
#pragma once

#include <optional>
#include <string>

#include "elements/force_law.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ForceBushingSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long i_marker_id = 0, j_marker_id = 0;
  double kx = 0, ky = 0, kz = 0, ktx = 0, kty = 0, ktz = 0;
  double cx = 0, cy = 0, cz = 0, ctx = 0, cty = 0, ctz = 0;
  double preload_x = 0, preload_y = 0, preload_z = 0, preload_tx = 0, preload_ty = 0, preload_tz = 0;
  bool active = true;  // false after <Deactivate element_type="BUSH"> (or FORCE)
};

const ElementSchema<ForceBushingSpec>& forceBushingSchema();
// Warns about a bushing whose coefficients and preloads are all 0: it would exert nothing.
void checkForceBushing(const ForceBushingSpec& spec, Diagnostics& diagnostics);

struct Bushing {
  long iMarker = 0, jMarker = 0;
  Vector3 stiffness = Vector3::Zero(), damping = Vector3::Zero(), preload = Vector3::Zero();
  Vector3 torsionalStiffness = Vector3::Zero(), torsionalDamping = Vector3::Zero(), torquePreload = Vector3::Zero();
};

Bushing buildBushing(const ForceBushingSpec& spec, const Model& model, ForceConnection& connection);

ElementAction bushingAction(const Bushing& bushing, const ExpressionContext& context);

}  // namespace lodestone
