// Body_Point, a point mass, against closed forms: on a spring, pushed and twisted at a marker away from its CG (it
// moves as F/m says and never turns), a bob on a SPHERICAL joint at the end of a pendulum link (the same motion as
// the link with the bob's mass merged into it), sliding along an INLINE primitive under gravity, and at rest on a
// spring in a static analysis, bouncing on a plate as the rigid ball of models/bouncing_ball.xml does, and resting on
// a box with the stiffness its Contact_Surface gives.
#include <cmath>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/joint_testing.h"
#include "support/results_csv.h"
#include "support/text_files.h"

namespace lodestone::testing {
namespace {

constexpr double kPointIntegrTol = 1e-6;

// <Body_Point> with its CG marker `cg` and initial velocity in ground.
std::string pointBodyXml(long id, long cg, double mass, const Vec3& velocity = Vec3::Zero()) {
  return "<Body_Point id=\"" + std::to_string(id) + "\" cg_id=\"" + std::to_string(cg) + "\" mass=\"" +
         formatReal(mass) + "\" v_ic_x=\"" + formatReal(velocity.x()) + "\" v_ic_y=\"" + formatReal(velocity.y()) +
         "\" v_ic_z=\"" + formatReal(velocity.z()) + "\"/>\n";
}

// A marker on a point body: markerXml's, with body_type="PointBody".
std::string pointMarkerXml(long id, long body, const Vec3& position, const Vec3& xAxis = Vec3::UnitX(),
                           const Vec3& zAxis = Vec3::UnitZ()) {
  std::string text = markerXml(id, body, position, xAxis, zAxis);
  return text.insert(text.find(" pos_x"), " body_type=\"PointBody\"");
}

ResultsTable bodiesOf(const DeckRun& run) { return ResultsTable((run.output / "bodies.csv").string()); }

// The largest change of the Euler parameters from (1, 0, 0, 0) and the largest |ω| over a body's outputs: both
// exactly 0 for a point body, whose turning rows hold ω' = 0 from ω = 0.
struct Turning {
  double eulerParameters = 0, angularVelocity = 0;
};
Turning turningOf(const BodyMotion& body) {
  Turning turning;
  for (size_t k = 0; k < body.count(); ++k) {
    const Eigen::Vector4d change = body.eulerParameters(k) - Eigen::Vector4d(1, 0, 0, 0);
    turning.eulerParameters = std::max(turning.eulerParameters, change.cwiseAbs().maxCoeff());
    turning.angularVelocity = std::max(turning.angularVelocity, body.angularVelocity(k).norm());
  }
  return turning;
}

// A 2 kg point mass on a spring of 50 N/m to the origin, released 0.1 m out along x at 0.5 m/s along x, no gravity:
// x(t) = x0 cos ωt + (v0/ω) sin ωt with ω = √(k/m) = 5 rad/s, over two periods, within 100·integr_tol of the
// amplitude.
TEST(BodyPoint, OscillatesOnASpringAsTheClosedFormSays) {
  const double mass = 2, stiffness = 50, x0 = 0.1, v0 = 0.5;
  const double omega = std::sqrt(stiffness / mass);
  DeckXml settings;
  settings.gravity = Vec3::Zero();
  settings.integrTol = kPointIntegrTol;
  const int periods = 2;
  settings.endTime = periods * 2 * std::numbers::pi / omega;
  // The CG marker turned: a point body's axes are still ground's.
  const std::string statements =
      markerXml(10, 1, Vec3::Zero()) + pointMarkerXml(20, 2, Vec3(x0, 0, 0), Vec3(0, 1, 0), Vec3(1, 0, 0)) +
      pointBodyXml(2, 20, mass, Vec3(v0, 0, 0)) +
      "<Force_SpringDamper id=\"5\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" j_marker_id=\"10\" stiffness=\"" +
      formatReal(stiffness) + "\" length=\"0\"/>\n";
  const DeckRun run = runDeckText("body_point_spring", deckXml(settings, statements));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const BodyMotion point(bodies, 2);
  ASSERT_GT(point.count(), 200u);
  const double amplitude = std::hypot(x0, v0 / omega);
  double worst = 0, worstOffAxis = 0;
  for (size_t k = 0; k < point.count(); ++k) {
    const double t = point.time(k);
    const double expected = x0 * std::cos(omega * t) + v0 / omega * std::sin(omega * t);
    worst = std::max(worst, std::fabs(point.cg(k).x() - expected));
    worstOffAxis = std::max(worstOffAxis, std::hypot(point.cg(k).y(), point.cg(k).z()));
  }
  const double bound = 100 * kPointIntegrTol * amplitude;
  EXPECT_LT(worst, bound) << "largest |x − closed form| over two periods";
  EXPECT_EQ(worstOffAxis, 0.0);
  const Turning turning = turningOf(point);
  EXPECT_EQ(turning.eulerParameters, 0.0);
  EXPECT_EQ(turning.angularVelocity, 0.0);
  std::printf("spring: |x − closed form| ≤ %.3e (bound %.3e)\n", worst, bound);
}

// A constant force and a constant torque at a marker 0.3 m from the CG: a rigid body would start to turn, a point
// mass does not (nothing to turn), and its CG moves by F/m·t²/2.
TEST(BodyPoint, ForceAtAnOffsetMarkerAndTorqueDoNotTurnIt) {
  const double mass = 4;
  const Vec3 force(2, -1, 3), torque(5, 7, -2), start(1, 2, 3);
  DeckXml settings;
  settings.gravity = Vec3::Zero();
  settings.integrTol = kPointIntegrTol;
  settings.endTime = 2;
  const std::string statements =
      pointMarkerXml(20, 2, start) + pointMarkerXml(21, 2, start + Vec3(0, 0.3, 0), Vec3(0, 0, 1), Vec3(1, 0, 0)) +
      pointBodyXml(2, 20, mass) + "<Force_Vector_OneBody id=\"8\" type=\"ForceAndTorque\" marker_id=\"21\"" +
      " fx_expression=\"" + formatReal(force.x()) + "\" fy_expression=\"" + formatReal(force.y()) +
      "\" fz_expression=\"" + formatReal(force.z()) + "\" tx_expression=\"" + formatReal(torque.x()) +
      "\" ty_expression=\"" + formatReal(torque.y()) + "\" tz_expression=\"" + formatReal(torque.z()) + "\"/>\n";
  const DeckRun run = runDeckText("body_point_offset_force", deckXml(settings, statements));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const BodyMotion point(bodies, 2);
  ASSERT_GT(point.count(), 100u);
  double worst = 0;
  for (size_t k = 0; k < point.count(); ++k) {
    const double t = point.time(k);
    worst = std::max(worst, (point.cg(k) - (start + force / mass * t * t / 2)).norm());
  }
  const double travel = (force / mass).norm() * settings.endTime * settings.endTime / 2;
  const double bound = 100 * kPointIntegrTol * travel;
  EXPECT_LT(worst, bound) << "largest |CG − (x0 + F/m·t²/2)|";
  const Turning turning = turningOf(point);
  EXPECT_EQ(turning.eulerParameters, 0.0);
  EXPECT_EQ(turning.angularVelocity, 0.0);
  std::printf("offset force: |CG − F/m·t²/2| ≤ %.3e (bound %.3e)\n", worst, bound);
}

// A pendulum link (Body_Rigid, REVOLUTE about ground z at the origin) with a point bob on a SPHERICAL joint at its
// end, released 120° from hanging: the bob adds its mass at the end and no inertia, so the link swings exactly as a
// single Body_Rigid with the bob's mass merged in (mass m + M, CG and inertia about the pivot combined). The two
// runs must agree; the bob must never turn, and stay on the link's end.
TEST(BodyPoint, BobOnASphericalJointSwingsAsTheMergedBody) {
  const double linkMass = 1, linkLength = 1, bobMass = 3, angle = 120 * std::numbers::pi / 180;
  const Vec3 direction(std::sin(angle), -std::cos(angle), 0);  // pivot to the link's end
  const Vec3 end = linkLength * direction, linkCg = end / 2;
  const double linkInertia = linkMass * linkLength * linkLength / 12;  // a slender rod about its CG
  DeckXml settings;
  settings.gravity = Vec3(0, -9.81, 0);
  settings.integrTol = kPointIntegrTol;
  settings.endTime = 4;
  BodyXml link;
  link.mass = linkMass;
  link.inertia = Vec3(linkInertia, linkInertia, linkInertia);
  const std::string withBob = markerXml(10, 1, Vec3::Zero()) + markerXml(20, 2, linkCg) +
                              markerXml(21, 2, Vec3::Zero()) + markerXml(22, 2, end) + bodyXml(link) +
                              jointXml(1, "REVOLUTE", 21, 10) + pointMarkerXml(30, 3, end) +
                              pointBodyXml(3, 30, bobMass) + jointXml(2, "SPHERICAL", 30, 22);
  const DeckRun bobRun = runDeckText("body_point_bob", deckXml(settings, withBob));
  ASSERT_TRUE(bobRun.completed);

  // The merged body: CG at the mass-weighted mean, inertia about it from the rod's and the bob's parallel-axis terms.
  BodyXml merged;
  merged.mass = linkMass + bobMass;
  const Vec3 mergedCg = (linkMass * linkCg + bobMass * end) / merged.mass;
  const double transverse = linkInertia + linkMass * (linkCg - mergedCg).squaredNorm() +
                            bobMass * (end - mergedCg).squaredNorm();
  merged.inertia = Vec3(transverse, transverse, transverse);  // only the z moment acts on a planar swing
  const std::string single = markerXml(10, 1, Vec3::Zero()) + markerXml(20, 2, mergedCg) +
                             markerXml(21, 2, Vec3::Zero()) + bodyXml(merged) + jointXml(1, "REVOLUTE", 21, 10);
  const DeckRun mergedRun = runDeckText("body_point_bob_merged", deckXml(settings, single));
  ASSERT_TRUE(mergedRun.completed);

  const ResultsTable bobBodies = bodiesOf(bobRun), mergedBodies = bodiesOf(mergedRun);
  const BodyMotion linkMotion(bobBodies, 2), bob(bobBodies, 3), mergedMotion(mergedBodies, 2);
  ASSERT_EQ(linkMotion.count(), mergedMotion.count());
  ASSERT_GT(linkMotion.count(), 100u);
  double worstEnd = 0, worstOnLink = 0;
  for (size_t k = 0; k < linkMotion.count(); ++k) {
    const Vec3 expectedEnd = mergedMotion.pointAt(k, end);
    worstEnd = std::max(worstEnd, (bob.cg(k) - expectedEnd).norm());
    worstOnLink = std::max(worstOnLink, (bob.cg(k) - linkMotion.pointAt(k, end)).norm());
  }
  // The bob sweeps ~2 m per swing; the runs differ by their integration errors.
  const double bound = 100 * kPointIntegrTol * linkLength;
  EXPECT_LT(worstEnd, bound) << "largest distance between the bob and the merged body's end";
  EXPECT_LT(worstOnLink, 1e-6 * linkLength) << "the SPHERICAL joint holds the bob on the link's end";
  const Turning turning = turningOf(bob);
  EXPECT_EQ(turning.eulerParameters, 0.0);
  EXPECT_EQ(turning.angularVelocity, 0.0);
  std::printf("bob: |bob − merged end| ≤ %.3e (bound %.3e); joint gap ≤ %.3e\n", worstEnd, bound, worstOnLink);
}

// A point mass on an INLINE primitive along a line 30° below horizontal (the ground marker's z axis), gravity −z:
// it slides with a = g·sin θ from rest, s(t) = g·sin θ·t²/2, staying on the line.
TEST(BodyPoint, SlidesAlongAnInlinePrimitiveWithGSinTheta) {
  const double g = 9.81, theta = 30 * std::numbers::pi / 180, mass = 0.5;
  const Vec3 down(std::cos(theta), 0, -std::sin(theta));  // the line, pointing down the slope
  DeckXml settings;
  settings.gravity = Vec3(0, 0, -g);
  settings.integrTol = kPointIntegrTol;
  settings.endTime = 1;
  const Vec3 xAxis = Vec3::UnitY().cross(down);
  const std::string statements = markerXml(10, 1, Vec3::Zero(), xAxis, down) + pointMarkerXml(20, 2, Vec3::Zero()) +
                                 pointBodyXml(2, 20, mass) +
                                 jointXml(1, "INLINE", 20, 10, "", "Constraint_Jprim");
  const DeckRun run = runDeckText("body_point_inline", deckXml(settings, statements));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const BodyMotion point(bodies, 2);
  ASSERT_GT(point.count(), 50u);
  double worst = 0, worstOffLine = 0;
  for (size_t k = 0; k < point.count(); ++k) {
    const double t = point.time(k);
    const Vec3 cg = point.cg(k);
    worst = std::max(worst, std::fabs(cg.dot(down) - g * std::sin(theta) * t * t / 2));
    worstOffLine = std::max(worstOffLine, (cg - cg.dot(down) * down).norm());
  }
  const double travel = g * std::sin(theta) * settings.endTime * settings.endTime / 2;
  const double bound = 100 * kPointIntegrTol * travel;
  EXPECT_LT(worst, bound) << "largest |s − g·sin θ·t²/2|";
  EXPECT_LT(worstOffLine, 1e-6 * travel);
  const Turning turning = turningOf(point);
  EXPECT_EQ(turning.eulerParameters, 0.0);
  EXPECT_EQ(turning.angularVelocity, 0.0);
  std::printf("inline: |s − g sin θ t²/2| ≤ %.3e (bound %.3e); off the line ≤ %.3e\n", worst, bound, worstOffLine);
}

// A point mass hanging on a spring from ground, a static analysis: it rests where k·stretch = m·g, with a torque on
// it (which a point mass ignores: the equilibrium must not wait for it to balance).
TEST(BodyPoint, RestsOnASpringInAStaticAnalysis) {
  const double mass = 2, stiffness = 100, g = 9.81;
  const std::string statements =
      "<Force_Gravity grav_z=\"" + formatReal(-g) + "\"/>\n<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n" +
      markerXml(10, 1, Vec3::Zero()) + pointMarkerXml(20, 2, Vec3(0, 0, -0.5)) + pointBodyXml(2, 20, mass) +
      "<Force_SpringDamper id=\"5\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" j_marker_id=\"10\" stiffness=\"" +
      formatReal(stiffness) + "\" length=\"0\"/>\n"
      "<Force_Vector_OneBody id=\"8\" type=\"TorqueOnly\" marker_id=\"20\" tx_expression=\"1\" ty_expression=\"0\""
      " tz_expression=\"0\"/>\n";
  const std::string text = "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n" + statements +
                           "</Model><Command><Simulate analysis_type=\"Static\"/></Command></MultiBodySystem>\n";
  const DeckRun run = runDeckText("body_point_static", text);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const BodyMotion point(bodies, 2);
  ASSERT_GE(point.count(), 1u);
  const double expected = -mass * g / stiffness;
  const double error = std::fabs(point.cg(point.count() - 1).z() - expected);
  EXPECT_LT(error, 1e-7 * std::fabs(expected)) << "z at rest, against −m·g/k = " << expected;
  EXPECT_EQ(turningOf(point).eulerParameters, 0.0);
  std::printf("static: |z − (−mg/k)| = %.3e\n", error);
}

// Replaces the first `from` in `text` by `to` (the test fails when it is not there).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// models/bouncing_ball.xml's steel ball, and the same ball as a Body_Point: the contact's force passes through the
// CG of a centred sphere, so the two bounce alike (the point ball's contact couplings lose their turning rows, the
// rigid ball's keep them). With friction and its sphere 3 mm off its CG, the point ball sliding at 300 mm/s stops
// sliding at the first impact (μ·impulse > m·v) and never turns, where a rigid ball would start to roll.
TEST(BodyPoint, BouncesOnAPlateAsTheRigidBallDoes) {
  const std::string rigid = fileText(std::filesystem::path(LODESTONE_SOURCE_DIR) / "models" / "bouncing_ball.xml");
  const std::string rigidBody = rigid.substr(rigid.find("<Body_Rigid id=\"2\""));
  const std::string ballElement = rigidBody.substr(0, rigidBody.find("/>") + 2);
  std::string point =
      replaced(rigid, ballElement, "<Body_Point id=\"2\" label=\"Ball\" cg_id=\"20\" mass=\"0.032882\"/>");
  point = replaced(point, "body_id=\"2\" pos_z", "body_id=\"2\" body_type=\"PointBody\" pos_z");
  const DeckRun rigidRun = runDeckText("body_point_ball_rigid", rigid);
  const DeckRun pointRun = runDeckText("body_point_ball", point);
  ASSERT_TRUE(rigidRun.completed && pointRun.completed);
  const ResultsTable rigidBodies = bodiesOf(rigidRun), pointBodies = bodiesOf(pointRun);
  const BodyMotion rigidBall(rigidBodies, 2), pointBall(pointBodies, 2);
  ASSERT_EQ(rigidBall.count(), pointBall.count());
  double worst = 0;
  for (size_t k = 0; k < pointBall.count(); ++k) worst = std::max(worst, (pointBall.cg(k) - rigidBall.cg(k)).norm());
  const double dropHeight = 100;  // mm
  const double bound = 100 * kPointIntegrTol * dropHeight;  // the deck's integr_tol is 1e-6 too
  EXPECT_LT(worst, bound) << "largest distance between the point ball and the rigid ball";
  EXPECT_EQ(turningOf(pointBall).eulerParameters, 0.0);

  const double sliding = 300;  // mm/s
  std::string rubbing = replaced(point, "cff_type=\"COULOMB_OFF\"",
                                 "cff_type=\"COULOMB_ON\" mu_static=\"0.3\" mu_dynamic=\"0.2\" "
                                 "stiction_trans_vel=\"10\" friction_trans_vel=\"20\"");
  rubbing = replaced(rubbing, "cg_id=\"20\" mass", "cg_id=\"20\" v_ic_x=\"" + formatReal(sliding) + "\" mass");
  rubbing = replaced(rubbing, "center_marker_id=\"20\" radius", "center_marker_id=\"21\" radius");
  rubbing = replaced(rubbing, "<Body_Point", "<Reference_Marker id=\"21\" body_id=\"2\" body_type=\"PointBody\" "
                                             "pos_x=\"3\" pos_z=\"110\"/>\n<Body_Point");
  const DeckRun rubbingRun = runDeckText("body_point_ball_friction", rubbing);
  ASSERT_TRUE(rubbingRun.completed);
  const ResultsTable rubbingBodies = bodiesOf(rubbingRun);
  const BodyMotion rubbingBall(rubbingBodies, 2);
  double slidingAfter = 0;
  for (size_t k = 0; k < rubbingBall.count(); ++k) {
    if (rubbingBall.time(k) > 0.15) slidingAfter = std::max(slidingAfter, std::fabs(rubbingBall.velocity(k).x()));
  }
  EXPECT_LT(slidingAfter, 1e-3 * sliding) << "|vx| after the first impact";
  const Turning turning = turningOf(rubbingBall);
  EXPECT_EQ(turning.eulerParameters, 0.0);
  EXPECT_EQ(turning.angularVelocity, 0.0);
  std::printf("ball: |point − rigid| ≤ %.3e mm (bound %.3e); |vx| after the impact ≤ %.3e mm/s\n", worst, bound,
              slidingAfter);
}

// A Contact_Surface names the point ball by its body_id: its kn (3e5 N/m) in series with the ground body's (1.5e5)
// gives 1e5 N/m, so the ball let go touching the box rests at m·g/1e5 (DIPOLE, critically damped), within 1e-10 m
// as the rigid ball of ContactDipoleLinear.InheritedStiffnessIsTheSeriesOfThePiecesAndTheElementsOwnWins does.
TEST(BodyPoint, AContactSurfaceOnItsBodyGivesItsStiffness) {
  const double mass = 0.11, radius = 0.03;
  const std::string deck =
      boxFloorDeckHead(2) +
      pointMarkerXml(20, 2, Vec3(0, 0, radius)) + pointBodyXml(2, 20, mass) +
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(radius) + "\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"DIPOLE\" dp_nratio=\"1\" "
      "dp_mode=\"2\" dipole_mo1=\"0 0 0\" dipole_mo2=\"0 0 0\" dipole_cap=\"1e-3\" dipole_d=\"0.01\" "
      "cff_type=\"COULOMB_OFF\"/>\n"
      "<Contact_Surface id=\"1\" body_id=\"2\" kn=\"3e5\"/>\n"
      "<Contact_Surface id=\"2\" body_id=\"1\" kn=\"1.5e5\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.3\" print_interval=\"0.01\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("body_point_surface", deck);
  ASSERT_TRUE(run.completed);
  const double depth = radius - run.bodies.at(run.bodies.rowCount() - 1, "z");
  const double expected = mass * kG / 1e5;
  EXPECT_NEAR(depth, expected, 1e-10);
  std::printf("point ball on its Contact_Surface: rest depth %.6e m, expected %.6e m\n", depth, expected);
}

}  // namespace
}  // namespace lodestone::testing
