// Every orientation form of Reference_Marker, and positions relative to another marker (rm_id).
#include <cmath>

#include "support/deck_testing.h"
#include "support/math_constants.h"

namespace lodestone::testing {
namespace {


Matrix3 orientationOf(const std::string& attributes, Diagnostics& diagnostics) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Reference_Marker id=\"30\" body_id=\"1\" " + attributes + "/>"));
  EXPECT_TRUE(result.spec) << result.diagnostics.formatAll();
  if (!result.spec) return Matrix3::Zero();
  return markerOrientation(result.spec->markers[1], diagnostics).value_or(Matrix3::Zero());
}

Matrix3 orientationOf(const std::string& attributes) {
  Diagnostics diagnostics;
  const Matrix3 m = orientationOf(attributes, diagnostics);
  EXPECT_FALSE(diagnostics.hasErrors()) << diagnostics.formatAll();
  return m;
}

// A rotation of 90° about z: x axis → y, y axis → -x.
Matrix3 quarterTurnAboutZ() {
  Matrix3 m;
  m << 0, -1, 0,
       1, 0, 0,
       0, 0, 1;
  return m;
}

TEST(ReferenceMarker, IdentityWhenNoOrientationIsGiven) {
  EXPECT_TRUE(orientationOf("").isApprox(Matrix3::Identity(), 1e-15));
}

TEST(ReferenceMarker, FullDirectionCosinesAreColumns) {
  const Matrix3 m = orientationOf("a00=\"0\" a10=\"1\" a20=\"0\" a01=\"-1\" a11=\"0\" a21=\"0\" a02=\"0\" a12=\"0\" a22=\"1\"");
  EXPECT_TRUE(m.isApprox(quarterTurnAboutZ(), 1e-15)) << m;
}

TEST(ReferenceMarker, PartialDirectionCosinesRebuildTheMissingAxis) {
  // The exporter's form: x and z columns only, y = z × x.
  EXPECT_TRUE(orientationOf("a00=\"0\" a10=\"1\" a20=\"0\" a02=\"0\" a12=\"0\" a22=\"1\"").isApprox(quarterTurnAboutZ(), 1e-15));
  // x and y given: z = x × y.
  EXPECT_TRUE(orientationOf("a00=\"0\" a10=\"1\" a01=\"-1\" a11=\"0\"").isApprox(quarterTurnAboutZ(), 1e-15));
  // y and z given: x = y × z.
  EXPECT_TRUE(orientationOf("a01=\"-1\" a22=\"1\"").isApprox(quarterTurnAboutZ(), 1e-15));
}

TEST(ReferenceMarker, RealExporterValues) {
  // From a MotionView export: x column (0, -1, 0), z column (-1, 0, 0).
  const Matrix3 m = orientationOf("a00=\"0.\" a10=\"-1.\" a20=\"0.\" a02=\"-1.\" a12=\"0.\" a22=\"0.\"");
  EXPECT_TRUE(m.col(1).isApprox(Vector3(0, 0, 1), 1e-15)) << m;
  EXPECT_NEAR(m.determinant(), 1.0, 1e-15);
}

TEST(ReferenceMarker, RoundedCosinesAreSnappedToTheNearestRotation) {
  const Matrix3 m = orientationOf("a00=\"0.70710678\" a10=\"0.70710678\" a02=\"0\" a12=\"0\" a22=\"1\"");
  EXPECT_LT(orthonormalityError(m), 1e-14);
  EXPECT_NEAR(m(0, 0), std::sqrt(0.5), 1e-8);
}

TEST(ReferenceMarker, NonOrthonormalCosinesAreAnError) {
  Diagnostics diagnostics;
  orientationOf("a00=\"1\" a10=\"1\" a20=\"0\" a02=\"0\" a12=\"0\" a22=\"1\"", diagnostics);
  EXPECT_TRUE(hasError(diagnostics, 6, "direction cosines do not form a right-handed orthonormal frame"));
  Diagnostics leftHanded;
  orientationOf("a00=\"1\" a11=\"1\" a22=\"-1\"", leftHanded);
  EXPECT_TRUE(hasError(leftHanded, 6, "right-handed"));
  Diagnostics oneAxis;
  orientationOf("a00=\"1\"", oneAxis);
  EXPECT_TRUE(hasError(oneAxis, 6, "direction cosines give only one axis"));
}

TEST(ReferenceMarker, Euler313Angles) {
  EXPECT_TRUE(orientationOf("psi=\"1.5707963267948966\"").isApprox(quarterTurnAboutZ(), 1e-15));
  // psi about z, then theta about the new x, then phi about the new z.
  const double psi = 0.3, theta = 1.1, phi = -0.7;
  const Matrix3 expected = (Eigen::AngleAxisd(psi, Vector3::UnitZ()) * Eigen::AngleAxisd(theta, Vector3::UnitX()) *
                            Eigen::AngleAxisd(phi, Vector3::UnitZ())).toRotationMatrix();
  EXPECT_TRUE(orientationOf("psi=\"0.3\" theta=\"1.1\" phi=\"-0.7\"").isApprox(expected, 1e-15));
  // theta alone tips z towards -y.
  const Matrix3 tipped = orientationOf("theta=\"" + std::to_string(kPi / 2) + "\"");
  EXPECT_TRUE(tipped.col(2).isApprox(Vector3(0, -1, 0), 1e-6)) << tipped;
}

TEST(ReferenceMarker, EulerRoundTrip) {
  const Vector3 angles(0.4, 2.0, -2.5);
  const Matrix3 r = rotationFromEuler313(angles(0), angles(1), angles(2));
  EXPECT_TRUE(euler313FromRotation(r).isApprox(angles, 1e-12));
  EXPECT_TRUE(rotationFromEulerParameters(eulerParametersFromRotation(r)).isApprox(r, 1e-14));
}

TEST(ReferenceMarker, CosinesAndEulerTogetherAreAnError) {
  Diagnostics diagnostics;
  orientationOf("a00=\"1\" a22=\"1\" psi=\"0.2\"", diagnostics);
  EXPECT_TRUE(hasError(diagnostics, 6, "either as direction cosines (a00…a22) or as Euler angles"));
}

// Builds a model with a ground body and one marker chain, returning the marker's pose in ground.
const Marker* builtMarker(const std::string& markers, long id, std::optional<Model>& model, Diagnostics& diagnostics) {
  const ReadResult result = readText(deck("<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n" + markers));
  EXPECT_TRUE(result.spec) << result.diagnostics.formatAll();
  if (!result.spec) return nullptr;
  model = buildModel(*result.spec, diagnostics);
  return model ? model->marker(id) : nullptr;
}

TEST(ReferenceMarker, PositionAndOrientationRelativeToAnotherMarker) {
  std::optional<Model> model;
  Diagnostics diagnostics;
  const Marker* marker = builtMarker(
      "<Reference_Marker id=\"10\" body_id=\"1\" pos_x=\"1\" pos_y=\"2\" pos_z=\"3\" psi=\"1.5707963267948966\"/>\n"
      "<Reference_Marker id=\"11\" body_id=\"1\" rm_id=\"10\" pos_x=\"1\" a00=\"0\" a10=\"1\" a02=\"0\" a22=\"1\"/>",
      11, model, diagnostics);
  ASSERT_NE(marker, nullptr) << diagnostics.formatAll();
  // One unit along marker 10's x axis, which points along ground y.
  EXPECT_TRUE(marker->position.isApprox(Vector3(1, 3, 3), 1e-14)) << marker->position.transpose();
  // Two quarter turns about z.
  Matrix3 halfTurn;
  halfTurn << -1, 0, 0, 0, -1, 0, 0, 0, 1;
  EXPECT_TRUE(marker->orientation.isApprox(halfTurn, 1e-14)) << marker->orientation;
}

TEST(ReferenceMarker, ChainsOfReferenceMarkersAndGroundFrameZero) {
  std::optional<Model> model;
  Diagnostics diagnostics;
  const Marker* marker = builtMarker(
      "<Reference_Marker id=\"12\" body_id=\"1\" rm_id=\"11\" pos_z=\"1\"/>\n"
      "<Reference_Marker id=\"11\" body_id=\"1\" rm_id=\"10\" pos_y=\"1\" theta=\"1.5707963267948966\"/>\n"
      "<Reference_Marker id=\"10\" body_id=\"1\" rm_id=\"0\" pos_x=\"1\"/>",
      12, model, diagnostics);
  ASSERT_NE(marker, nullptr) << diagnostics.formatAll();
  // Marker 11's z axis is ground -y after the quarter turn about x.
  EXPECT_TRUE(marker->position.isApprox(Vector3(1, 0, 0), 1e-14)) << marker->position.transpose();
}

TEST(ReferenceMarker, LoopingChainIsAnError) {
  std::optional<Model> model;
  Diagnostics diagnostics;
  builtMarker("<Reference_Marker id=\"10\" body_id=\"1\" rm_id=\"11\"/>\n"
              "<Reference_Marker id=\"11\" body_id=\"1\" rm_id=\"10\"/>",
              10, model, diagnostics);
  EXPECT_FALSE(model);
  EXPECT_TRUE(hasError(diagnostics, 4, "Reference_Marker id=10: rm_id chain loops back to this marker"))
      << diagnostics.formatAll();
}

}  // namespace
}  // namespace lodestone::testing
