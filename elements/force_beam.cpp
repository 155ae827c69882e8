// Force_Beam: attributes, Timoshenko's stiffness matrix and the beam's force and torque.
#include "force_beam.h"

#include "solver/expr/expression.h"

namespace lodestone {

using S = ForceBeamSpec;

const ElementSchema<ForceBeamSpec>& forceBeamSchema() {
  // The section and the material must be positive (MotionSolve: "E has to be strictly positive", and so on): each
  // divides or multiplies a stiffness that must not vanish. Shear area ratios and the damping ratio may be 0.
  const auto positive = [](const char* name, double S::*field) {
    return attr::real(name, field).above(0).required().modifiable();
  };
  const auto ratio = [](const char* name, double S::*field) {
    return attr::real(name, field).atLeast(0).byDefault(0.0).modifiable();
  };
  const auto preload = [](const char* name, double S::*field) {
    return attr::real(name, field).byDefault(0.0).modifiable();
  };
  static const ElementSchema<S> schema{
      .element = "Force_Beam",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable(),
          attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required().modifiable(),
          positive("length", &S::length), positive("e", &S::E), positive("g", &S::G), positive("area", &S::area),
          positive("ixx", &S::ixx), positive("iyy", &S::iyy), positive("izz", &S::izz),
          ratio("asy", &S::ASY), ratio("asz", &S::ASZ), ratio("cratio", &S::cratio),
          preload("preload_x", &S::preload_x), preload("preload_y", &S::preload_y),
          preload("preload_z", &S::preload_z), preload("preload_tx", &S::preload_tx),
          preload("preload_ty", &S::preload_ty), preload("preload_tz", &S::preload_tz),
          attr::presentation<S>("full_label"),
      },
      // Adams' BEAM statement and MotionSolve's Python API name some of them differently.
      .foreignNames = {
          {"emodulus", "Adams' BEAM EMODULUS", "'E'"},
          {"gmodulus", "Adams' BEAM GMODULUS", "'G'"},
          {"cmatrix", "Adams' BEAM CMATRIX (a damping matrix of its own)", "'cratio' (damping = cratio × stiffness)"},
      }};
  return schema;
}

Matrix6 beamStiffness(const ForceBeamSpec& spec) {
  const double l = spec.length, e = spec.E, g = spec.G, a = spec.area;
  // The shear terms: the bending stiffness of a beam that also shears, Timoshenko's φ = 12·E·I/(κ·G·A·L²).
  const double py = 12 * e * spec.izz * spec.ASY / (g * a * l * l);
  const double pz = 12 * e * spec.iyy * spec.ASZ / (g * a * l * l);
  Matrix6 k = Matrix6::Zero();
  k(0, 0) = e * a / l;
  k(3, 3) = g * spec.ixx / l;
  k(1, 1) = 12 * e * spec.izz / (l * l * l * (1 + py));
  k(1, 5) = k(5, 1) = -6 * e * spec.izz / (l * l * (1 + py));
  k(5, 5) = (4 + py) * e * spec.izz / (l * (1 + py));
  k(2, 2) = 12 * e * spec.iyy / (l * l * l * (1 + pz));
  k(2, 4) = k(4, 2) = 6 * e * spec.iyy / (l * l * (1 + pz));
  k(4, 4) = (4 + pz) * e * spec.iyy / (l * (1 + pz));
  return k;
}

std::optional<Beam> buildBeam(const ForceBeamSpec& spec, const Model& model, ForceConnection& connection,
                              Diagnostics& diagnostics) {
  if (!connectMarkerPair(spec.i_marker_id, spec.j_marker_id, spec.loc, model, connection, diagnostics,
                         "a beam joins two different bodies")) {
    return std::nullopt;
  }
  Beam beam{.iMarker = spec.i_marker_id,
            .jMarker = spec.j_marker_id,
            .length = spec.length,
            .stiffness = beamStiffness(spec),
            .dampingRatio = spec.cratio};
  beam.preload << spec.preload_x, spec.preload_y, spec.preload_z, spec.preload_tx, spec.preload_ty, spec.preload_tz;
  return beam;
}

ElementAction beamAction(const Beam& beam, const ExpressionContext& context) {
  const RelativeDeflection relative = relativeDeflection(context.marker(static_cast<int>(beam.iMarker)),
                                                         context.marker(static_cast<int>(beam.jMarker)));
  Vector6 deflection = relative.displacement;
  deflection(0) -= beam.length;
  const Vector6& rate = relative.rate;
  const Vector6 elastic = beam.stiffness * deflection;
  const Vector6 damping = beam.dampingRatio * (beam.stiffness * rate);
  const Vector6 load = -elastic - damping + beam.preload;
  ElementAction action = deflectionLoadAction(relative, load);
  // As for the bushing: exact for translations, first order for rotations (a's rate is w only for small turns).
  action.strain = 0.5 * deflection.dot(elastic) - beam.preload.dot(deflection);
  action.dashpotPower = rate.dot(damping);
  return action;
}

}  // namespace lodestone
