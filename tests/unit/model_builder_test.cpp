// Building the model: body frames at the CG marker, inertia moved to the CG, initial state, marker placement.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

struct Built {
  std::optional<Model> model;
  Diagnostics diagnostics;
};

Built build(const std::string& model) {
  Built built;
  const ReadResult result = readText(deck(model));
  EXPECT_TRUE(result.spec) << result.diagnostics.formatAll();
  if (result.spec) built.model = buildModel(*result.spec, built.diagnostics);
  return built;
}

std::string number(double value) { return formatReal(value); }

TEST(ModelBuilder, BodyFrameIsTheCgMarkerAndInitialVelocitiesAreGlobal) {
  const Built built = build(
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"1\" pos_y=\"2\" pos_z=\"3\" psi=\"1.5707963267948966\"/>\n"
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"1\" pos_y=\"3\" pos_z=\"3\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"1\" inertia_yy=\"2\" inertia_zz=\"2.5\" "
      "v_ic_x=\"4\" w_ic_z=\"5\"/>");
  ASSERT_TRUE(built.model) << built.diagnostics.formatAll();
  const Model& model = *built.model;
  ASSERT_EQ(model.bodies.size(), 1u);
  const RigidBody& body = model.bodies[0];
  EXPECT_EQ(body.position, Vector3(1, 2, 3));
  const Vector4 quarterTurn(std::sqrt(0.5), 0, 0, std::sqrt(0.5));
  EXPECT_TRUE(body.eulerParameters.isApprox(quarterTurn, 1e-15)) << body.eulerParameters.transpose();
  EXPECT_EQ(body.velocity, Vector3(4, 0, 0));
  EXPECT_EQ(body.angularVelocity, Vector3(0, 0, 5));
  EXPECT_EQ(model.groundBodyIds, std::vector<long>{1});
  // Marker 21 is one unit along ground y from the CG, which is the body's x axis.
  const Marker* marker = model.marker(21);
  ASSERT_NE(marker, nullptr);
  EXPECT_EQ(marker->body, 0);
  EXPECT_TRUE(marker->position.isApprox(Vector3(1, 0, 0), 1e-15)) << marker->position.transpose();
}

TEST(ModelBuilder, ProductsOfInertiaArePositiveIntegrals) {
  const Built built = build(
      "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"2\" inertia_yy=\"3\" inertia_zz=\"4\" "
      "inertia_xy=\"0.5\" inertia_yz=\"0.25\" inertia_xz=\"-0.125\"/>");
  ASSERT_TRUE(built.model) << built.diagnostics.formatAll();
  Matrix3 expected;
  expected << 2, -0.5, 0.125,
              -0.5, 3, -0.25,
              0.125, -0.25, 4;
  EXPECT_TRUE(built.model->bodies[0].inertia.isApprox(expected, 1e-15)) << built.model->bodies[0].inertia;
}

TEST(ModelBuilder, InertiaAboutAnotherMarkerIsMovedToTheCg) {
  // A body whose principal inertia about the CG is diag(1, 2, 2.5) in axes turned by psi about z. Its inertia is
  // given about marker 21 (offset d from the CG, with ground-aligned axes), as a deck would give it.
  const double mass = 3.0;
  const Matrix3 principal = Vector3(1, 2, 2.5).asDiagonal();
  const Matrix3 bodyAxes = rotationFromEuler313(0.4, 0.0, 0.0);
  const Vector3 d(0.5, -0.2, 0.1);
  const Matrix3 aboutIm =
      bodyAxes * principal * bodyAxes.transpose() + mass * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
  const Built built = build(
      "<Reference_Marker id=\"20\" body_id=\"2\" psi=\"0.4\"/>\n"
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"0.5\" pos_y=\"-0.2\" pos_z=\"0.1\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" im_id=\"21\" mass=\"3\" inertia_xx=\"" + number(aboutIm(0, 0)) +
      "\" inertia_yy=\"" + number(aboutIm(1, 1)) + "\" inertia_zz=\"" + number(aboutIm(2, 2)) + "\" inertia_xy=\"" +
      number(-aboutIm(0, 1)) + "\" inertia_yz=\"" + number(-aboutIm(1, 2)) + "\" inertia_xz=\"" +
      number(-aboutIm(0, 2)) + "\"/>");
  ASSERT_TRUE(built.model) << built.diagnostics.formatAll();
  EXPECT_TRUE(built.model->bodies[0].inertia.isApprox(principal, 1e-14)) << built.model->bodies[0].inertia;
}

TEST(ModelBuilder, CgMarkerMustBeOnTheBody) {
  const Built built = build(
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n<Reference_Marker id=\"20\" body_id=\"1\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>");
  EXPECT_FALSE(built.model);
  EXPECT_TRUE(hasError(built.diagnostics, 5, "Body_Rigid id=2: attribute 'cg_id': Reference_Marker id=20 "
                                             "(deck.xml:4:1) is on Body_Rigid id=1, not on this body"));
}

TEST(ModelBuilder, InertiaMustBePhysical) {
  const Built zero = build("<Reference_Marker id=\"20\" body_id=\"2\"/>\n<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\"/>");
  EXPECT_TRUE(hasError(zero.diagnostics, 4, "the inertia about the centre of mass must be positive definite"));
  const Built triangle = build("<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
                               "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"1\" inertia_yy=\"1\" "
                               "inertia_zz=\"3\"/>");
  EXPECT_TRUE(hasError(triangle.diagnostics, 4, "break the triangle inequality"));
  const Built thinRod = build("<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
                              "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"1e-9\" inertia_yy=\"1\" "
                              "inertia_zz=\"1\"/>");
  EXPECT_TRUE(thinRod.model) << thinRod.diagnostics.formatAll();
}

TEST(ModelBuilder, IntegratorSettingsAndGravity) {
  const Built built = build(groundAndBody() + "\n<Force_Gravity grav_y=\"-9.81\"/>\n"
                                              "<Param_Transient integr_tol=\"1e-5\" h_max=\"0.01\" h0_max=\"1e-6\" "
                                              "max_order=\"3\"/>");
  ASSERT_TRUE(built.model);
  EXPECT_EQ(built.model->gravity, Vector3(0, -9.81, 0));
  EXPECT_EQ(built.model->integrator.integrTol, 1e-5);
  EXPECT_EQ(built.model->integrator.hMax, 0.01);
  EXPECT_EQ(built.model->integrator.hMin, 0.0);
  EXPECT_EQ(built.model->integrator.h0Max, 1e-6);
  EXPECT_EQ(built.model->integrator.maxOrder, 3);
  const Built defaults = build(groundAndBody());
  EXPECT_EQ(defaults.model->integrator.integrTol, 1e-3);
  EXPECT_EQ(defaults.model->integrator.maxOrder, 5);
}

}  // namespace
}  // namespace lodestone::testing
