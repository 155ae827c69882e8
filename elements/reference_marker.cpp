// Reference_Marker: attributes and the orientation forms MotionSolve decks use.
#include "reference_marker.h"

#include <Eigen/SVD>

#include "solver/core/text.h"

namespace lodestone {

namespace {

// body_id names a Body_Rigid, or a Body_Point when body_type is PointBody (MotionSolve numbers the two apart): one
// table, built for either target.
ElementSchema<ReferenceMarkerSpec> makeReferenceMarkerSchema(const std::string& bodyElement) {
  using S = ReferenceMarkerSpec;
  return ElementSchema<S>{
      .element = "Reference_Marker",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::presentation<S>("full_label"),
          attr::reference("body_id", &S::body_id, bodyElement).required(),
          attr::keyword("body_type", &S::body_type, {"RigidBody", "FlexBody", "PointBody"}).byDefault(std::string("RigidBody")),
          attr::reference("rm_id", &S::rm_id, "Reference_Marker").groundFrame(),
          attr::real("pos_x", &S::pos_x).byDefault(0.0),
          attr::real("pos_y", &S::pos_y).byDefault(0.0),
          attr::real("pos_z", &S::pos_z).byDefault(0.0),
          attr::real("a00", &S::a00), attr::real("a10", &S::a10), attr::real("a20", &S::a20),
          attr::real("a01", &S::a01), attr::real("a11", &S::a11), attr::real("a21", &S::a21),
          attr::real("a02", &S::a02), attr::real("a12", &S::a12), attr::real("a22", &S::a22),
          attr::real("psi", &S::psi), attr::real("theta", &S::theta), attr::real("phi", &S::phi),
          attr::unsupported<S>("node_id", "markers on flexible bodies are not supported"),
      }};
}

}  // namespace

const ElementSchema<ReferenceMarkerSpec>& referenceMarkerSchema() {
  static const ElementSchema<ReferenceMarkerSpec> schema = makeReferenceMarkerSchema("Body_Rigid");
  return schema;
}

const ElementSchema<ReferenceMarkerSpec>& referenceMarkerOnPointBodySchema() {
  static const ElementSchema<ReferenceMarkerSpec> schema = makeReferenceMarkerSchema("Body_Point");
  return schema;
}

bool namesPointBody(const std::string& bodyType) { return toUpper(std::string(trim(bodyType))) == "POINTBODY"; }

void checkReferenceMarker(const ReferenceMarkerSpec& spec, Diagnostics& diagnostics) {
  if (spec.body_type == "FlexBody") {
    diagnostics.error(spec.loc, "body_type FlexBody is not supported: markers must be on rigid or point bodies");
  }
}

namespace {

// Column j of the direction-cosine matrix, or nullopt when none of its three entries is given.
std::optional<Vector3> directionColumn(const std::optional<double>& a, const std::optional<double>& b,
                                       const std::optional<double>& c) {
  if (!a && !b && !c) return std::nullopt;
  return Vector3(a.value_or(0.0), b.value_or(0.0), c.value_or(0.0));
}

}  // namespace

std::optional<Matrix3> markerOrientation(const ReferenceMarkerSpec& spec, Diagnostics& diagnostics) {
  const std::optional<Vector3> x = directionColumn(spec.a00, spec.a10, spec.a20);
  const std::optional<Vector3> y = directionColumn(spec.a01, spec.a11, spec.a21);
  const std::optional<Vector3> z = directionColumn(spec.a02, spec.a12, spec.a22);
  const bool anyCosine = x || y || z;
  const bool anyEuler = spec.psi || spec.theta || spec.phi;
  if (anyCosine && anyEuler) {
    diagnostics.error(spec.loc, "give the orientation either as direction cosines (a00…a22) or as Euler angles "
                                "(psi, theta, phi), not both");
    return std::nullopt;
  }
  if (anyEuler) return rotationFromEuler313(spec.psi.value_or(0.0), spec.theta.value_or(0.0), spec.phi.value_or(0.0));
  if (!anyCosine) return Matrix3::Identity();

  const int columns = int(x.has_value()) + int(y.has_value()) + int(z.has_value());
  if (columns < 2) {
    diagnostics.error(spec.loc, "direction cosines give only one axis; give at least two of the x (a00 a10 a20), "
                                "y (a01 a11 a21) and z (a02 a12 a22) columns");
    return std::nullopt;
  }
  Matrix3 rotation;
  // Exporters often write only the x and z columns; the missing one completes a right-handed frame.
  rotation.col(0) = x ? *x : y->cross(*z);
  rotation.col(1) = y ? *y : z->cross(*x);
  rotation.col(2) = z ? *z : x->cross(*y);
  const double deviation = orthonormalityError(rotation);
  if (deviation > 1e-4) {
    diagnostics.error(spec.loc, "direction cosines do not form a right-handed orthonormal frame (deviation " +
                                    formatSignificant(deviation, 3) + "); each column must be a unit axis, perpendicular "
                                    "to the others");
    return std::nullopt;
  }
  // Rounding in the deck (8–15 digits) leaves a matrix slightly off a rotation: use the nearest one.
  const Eigen::JacobiSVD<Matrix3> svd(rotation, Eigen::ComputeFullU | Eigen::ComputeFullV);
  return svd.matrixU() * svd.matrixV().transpose();
}

}  // namespace lodestone
