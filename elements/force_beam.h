// Force_Beam (Adams BEAM, linear formulation): a massless straight beam of uniform section between markers I and J,
// its neutral axis along J's x, loading I and J with Timoshenko's 6×6 stiffness. The deck element, its checks, and
// its law.
//
// With every vector in J's axes — q = [x−L, y, z, a, b, c]: I's origin's displacement from J's, [DX DY DZ](I,J,J),
// less the free length L along x, and I's rotation relative to J, [AX AY AZ](I,J); q̇ = [VX VY VZ WX WY WZ], their
// rates seen from J —
//   [F; T] = −K·q − cratio·K·q̇ + [preload_x … preload_tz]
//   K: K11 = E·A/L, K44 = G·Ixx/L,
//      K22 = 12·E·Izz/(L³(1+Py)), K26 = K62 = −6·E·Izz/(L²(1+Py)), K66 = (4+Py)·E·Izz/(L(1+Py)),
//      K33 = 12·E·Iyy/(L³(1+Pz)), K35 = K53 = +6·E·Iyy/(L²(1+Pz)), K55 = (4+Pz)·E·Iyy/(L(1+Pz)),
//      Py = 12·E·Izz·ASY/(G·A·L²), Pz = 12·E·Iyy·ASZ/(G·A·L²)   (ASY = ASZ = 0: Euler–Bernoulli, no shear)
// F and T act on I (F at I's origin). J carries −F and −T − δ × F, δ = p_I − p_J (Adams' equilibrium of the massless
// beam): the same as −F acting at I's origin on J's body, which is how it is applied.
// A cantilever (J fixed) under a tip load P along y deflects P·L³/(3·E·Izz) + P·L·ASY/(G·A): Timoshenko's formula
// with ASY = 1/κ, the shear area ratio.
#pragma once

#include <optional>
#include <string>

#include "elements/force_law.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ForceBeamSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long i_marker_id = 0, j_marker_id = 0;
  double length = 0, E = 0, G = 0, area = 0, ixx = 0, iyy = 0, izz = 0;
  double ASY = 0, ASZ = 0, cratio = 0;
  double preload_x = 0, preload_y = 0, preload_z = 0, preload_tx = 0, preload_ty = 0, preload_tz = 0;
  bool active = true;
};

const ElementSchema<ForceBeamSpec>& forceBeamSchema();

struct Beam {
  long iMarker = 0, jMarker = 0;
  double length = 0;
  Matrix6 stiffness = Matrix6::Zero();
  double dampingRatio = 0;  // damping matrix = dampingRatio · stiffness
  Vector6 preload = Vector6::Zero();
};

// Timoshenko's stiffness matrix of the spec's beam (the formula above).
Matrix6 beamStiffness(const ForceBeamSpec& spec);

// The beam, or nothing after an error: I and J on the same body (the beam would load nothing).
std::optional<Beam> buildBeam(const ForceBeamSpec& spec, const Model& model, ForceConnection& connection,
                              Diagnostics& diagnostics);

ElementAction beamAction(const Beam& beam, const ExpressionContext& context);

}  // namespace lodestone
