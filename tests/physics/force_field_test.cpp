// Force_Field against its definition: a body held to ground by a field with a coupled (non-diagonal) stiffness
// matrix, reference lengths and preloads, under a known force and torque, comes to rest at q = L + K⁻¹·(F0 + F) —
// translations and the rotation measures AX, AY, AZ together; a field whose matrices are diagonal moves a body
// exactly as a Force_Bushing of the same values, bit for bit, and FIELD() reads in an expression what BUSH() reads of
// the bushing; at rest FIELD() is the load the field holds; Deactivate FIELD takes it away.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <Eigen/Dense>
#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

using Matrix6d = Eigen::Matrix<double, 6, 6>;
using Vector6d = Eigen::Matrix<double, 6, 1>;

// Symmetric and positive definite (eigenvalues 1.9e3 … 4.0e4), every translation coupled to another and to some
// rotation: a law that dropped the off-diagonal terms, or transposed the matrix's index order, lands elsewhere.
Matrix6d coupledStiffness() {
  Matrix6d k;
  k << 2e4, 5e3, 0, 0, 1e3, 0,  //
      5e3, 3e4, 2e3, -1e3, 0, 0,  //
      0, 2e3, 4e4, 0, 0, 5e2,     //
      0, -1e3, 0, 2e3, 3e2, 0,    //
      1e3, 0, 0, 3e2, 3e3, 1e2,   //
      0, 0, 5e2, 0, 1e2, 4e3;
  return k;
}

std::string matrixAttributes(char letter, const Matrix6d& matrix) {
  std::string text;
  for (int row = 0; row < 6; ++row) {
    for (int column = 0; column < 6; ++column) {
      if (matrix(row, column) == 0) continue;
      text += std::string(1, letter) + std::to_string(row + 1) + std::to_string(column + 1) + "=\"" +
              formatReal(matrix(row, column)) + "\" ";
    }
  }
  return text;
}

std::string fieldVectorAttributes(const std::string& prefix, const Vector6d& vector) {
  const char* components[6] = {"x", "y", "z", "tx", "ty", "tz"};
  std::string text;
  for (int k = 0; k < 6; ++k) text += prefix + components[k] + "=\"" + formatReal(vector(k)) + "\" ";
  return text;
}

// Ground (marker 10 at the origin, the field's J) and body 2 whose CG marker 20 (the field's I) starts at the origin;
// then `elements`. No gravity.
std::string heldBody(const std::string& elements, const std::string& commands, const std::string& bodyExtra = "") {
  return deck("<Param_Transient integr_tol=\"1e-8\"/>\n"
              "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
              "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
              "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
              "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"0.02\" inertia_yy=\"0.03\" "
              "inertia_zz=\"0.04\" " + bodyExtra + "/>\n" + elements,
              commands);
}

// The rotation measures of body 2 against ground from its Euler parameters: AX = atan2(−z·ŷ, z·ẑ),
// AY = atan2(z·x̂, z·ẑ), AZ = atan2(x·ŷ, x·x̂), x and z the body's axes in ground.
Eigen::Vector3d rotationMeasures(const ResultsTable& bodies, size_t row) {
  const Eigen::Quaterniond q(bodies.at(row, "e0"), bodies.at(row, "e1"), bodies.at(row, "e2"), bodies.at(row, "e3"));
  const Eigen::Matrix3d r = q.normalized().toRotationMatrix();
  return {std::atan2(-r(1, 2), r(2, 2)), std::atan2(r(0, 2), r(2, 2)), std::atan2(r(1, 0), r(0, 0))};
}

// K·(q − L) = F0 + F at rest: q = L + K⁻¹·(F0 + F), solved here with Eigen's LU: x = 7.88682e-3, y = −3.66357e-3,
// z = 5.10196e-3, AX = 2.73101e-3, AY = −3.41863e-3, AZ = −1.50228e-3 (numpy gives the same). A field that ignored
// the lengths, the preloads or a coupling term misses by more than 1e-4 of its deflection.
TEST(ForceField, StaticDeflectionUnderAKnownLoadIsTheInverseStiffnessTimesTheLoad) {
  const Matrix6d stiffness = coupledStiffness();
  Vector6d length, preload, load;
  length << 0.002, -0.001, 0.003, 0.001, 0, -0.002;
  preload << 1, 2, -1, 0.1, 0.2, -0.3;
  load << 100, -50, 80, 5, -4, 3;
  const std::string field = "<Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"10\" " +
                            matrixAttributes('K', stiffness) + fieldVectorAttributes("length_", length) +
                            fieldVectorAttributes("preload_", preload) + "/>\n";
  const std::string applied =
      "<Force_Vector_OneBody id=\"8\" type=\"ForceAndTorque\" marker_id=\"20\" fx_expression=\"100\" "
      "fy_expression=\"-50\" fz_expression=\"80\" tx_expression=\"5\" ty_expression=\"-4\" tz_expression=\"3\"/>";
  // FIELD(7, 0, comp, 0): the field's loads on I in ground's axes, which at rest balance the applied ones.
  const std::string request = "\n<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"FIELD(7,0,2,0)\" "
                              "expr2=\"FIELD(7,0,3,0)\" expr3=\"FIELD(7,0,4,0)\" expr4=\"FIELD(7,0,6,0)\" "
                              "expr5=\"FIELD(7,0,7,0)\" expr6=\"FIELD(7,0,8,0)\" expr7=\"FIELD(7,1,2,0)\"/>";
  const DeckRun run =
      runDeckText("field_static", heldBody(field + applied + request, "<Simulate analysis_type=\"Static\"/>"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 1u);
  const ResultsTable requests((run.output / "requests.csv").string());
  ASSERT_EQ(requests.rowCount(), 1u);
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(requests.at(0, "f" + std::to_string(k + 1)), -load(k), 1e-6 * std::fabs(load(k))) << "FIELD " << k;
  }
  EXPECT_NEAR(requests.at(0, "f7"), load(0), 1e-6 * load(0));  // the J side's force, the opposite
  const Vector6d expected = length + stiffness.fullPivLu().solve(preload + load);
  Vector6d reached;
  reached.head<3>() = Eigen::Vector3d(bodies.at(0, "x"), bodies.at(0, "y"), bodies.at(0, "z"));
  reached.tail<3>() = rotationMeasures(bodies, 0);
  for (int k = 0; k < 6; ++k) {
    EXPECT_NEAR(reached(k), expected(k), 1e-9) << "component " << k;
  }
  EXPECT_NEAR(expected(0), 7.88682e-3, 1e-8);
  EXPECT_NEAR(expected(5), -1.50228e-3, 1e-8);
  RecordProperty("worst_component_error", sci((reached - expected).cwiseAbs().maxCoeff()));
}

std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The same diagonal stiffness, damping and preloads as a Force_Field and as a Force_Bushing, on a body thrown off
// with a velocity and a spin, 2 s of transient motion: bodies.csv is the same file, byte for byte.
TEST(ForceField, DiagonalFieldMovesTheBodyExactlyAsTheBushingOfTheSameValues) {
  const double k[6] = {2e3, 3e3, 4e3, 20, 30, 40}, c[6] = {5, 6, 7, 0.05, 0.06, 0.07};
  const double preload[6] = {1, -2, 3, 0.1, -0.2, 0.3};
  Matrix6d stiffness = Matrix6d::Zero(), damping = Matrix6d::Zero();
  Vector6d preloads;
  for (int n = 0; n < 6; ++n) {
    stiffness(n, n) = k[n];
    damping(n, n) = c[n];
    preloads(n) = preload[n];
  }
  const std::string field = "<Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"10\" " +
                            matrixAttributes('K', stiffness) + matrixAttributes('C', damping) +
                            fieldVectorAttributes("preload_", preloads) + "/>";
  std::string bushing = "<Force_Bushing id=\"7\" i_marker_id=\"20\" j_marker_id=\"10\" ";
  const char* names[6] = {"x", "y", "z", "tx", "ty", "tz"};
  for (int n = 0; n < 6; ++n) {
    bushing += std::string("k") + names[n] + "=\"" + formatReal(k[n]) + "\" c" + names[n] + "=\"" +
               formatReal(c[n]) + "\" preload_" + names[n] + "=\"" + formatReal(preload[n]) + "\" ";
  }
  bushing += "/>";
  // FIELD and BUSH of the same id, each the loads on I (ground axes, torques about I's origin): requests.csv too.
  const auto request = [](const std::string& function) {
    std::string text = "\n<Post_Request id=\"9\" type=\"EXPRESSION\"";
    for (int comp = 1; comp <= 8; ++comp) {
      text += " expr" + std::to_string(comp) + "=\"" + function + "(7,0," + std::to_string(comp) + ",0)\"";
    }
    return text + "/>";
  };
  const std::string motion = "v_ic_x=\"0.3\" v_ic_y=\"-0.2\" v_ic_z=\"0.1\" w_ic_x=\"2\" w_ic_y=\"-1\" w_ic_z=\"3\"";
  const std::string transient = "<Simulate analysis_type=\"Transient\" end_time=\"2\" print_interval=\"0.01\"/>";
  const DeckRun fieldRun = runDeckText("field_diagonal", heldBody(field + request("FIELD"), transient, motion));
  const DeckRun bushingRun = runDeckText("field_bushing", heldBody(bushing + request("BUSH"), transient, motion));
  ASSERT_TRUE(fieldRun.completed);
  ASSERT_TRUE(bushingRun.completed);
  const std::string fieldBodies = fileText(fieldRun.output / "bodies.csv");
  ASSERT_GT(fieldBodies.size(), 10000u);
  EXPECT_TRUE(fieldBodies == fileText(bushingRun.output / "bodies.csv"));
  const std::string fieldRequests = fileText(fieldRun.output / "requests.csv");
  ASSERT_GT(fieldRequests.size(), 10000u);
  EXPECT_TRUE(fieldRequests == fileText(bushingRun.output / "requests.csv"));
  // And the body did move: the comparison is of a motion, not of a body at rest. Thrown at 0.3 m/s against
  // kx = 2000 N/m (ω = 31.6 rad/s), it swings out to about 0.3/31.6 = 9.5e-3 m.
  const ResultsTable bodies((fieldRun.output / "bodies.csv").string());
  double farthest = 0;
  for (size_t row = 0; row < bodies.rowCount(); ++row) farthest = std::max(farthest, std::fabs(bodies.at(row, "x")));
  EXPECT_GT(farthest, 5e-3);
}

// Deactivate FIELD at the start leaves the body under the applied force alone: x = F·t²/(2m).
TEST(ForceField, DeactivateFieldTakesItAway) {
  const std::string field = "<Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"10\" K11=\"1e4\"/>\n"
                            "<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"4\" "
                            "fy_expression=\"0\" fz_expression=\"0\"/>";
  const DeckRun run = runDeckText(
      "field_deactivated",
      heldBody(field, "<Deactivate element_type=\"FIELD\" element_id=\"7\"/>\n"
                      "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const size_t last = bodies.rowCount() - 1;
  EXPECT_NEAR(bodies.at(last, "x"), 4 * 1.0 / (2 * 2), 1e-6);
}

TEST(ForceFieldDeck, MistakesAreReportedWithTheirPlace) {
  const std::string model = groundAndBody() + "\n<Reference_Marker id=\"21\" body_id=\"2\"/>\n";
  // Lines 3-5: ground, marker 20, body 2; line 6: marker 21; line 7: the field.
  const Diagnostics sameBody =
      readAndBuildDeck(deck(model + "<Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"21\" K11=\"1\"/>"));
  EXPECT_TRUE(hasError(sameBody, 7, "deck.xml:7:1: Force_Field id=7: i_marker_id=20 and j_marker_id=21 are both on"));
  const Diagnostics fiesub = readAndBuildDeck(deck(
      model + "<Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"21\" usrsub_dll_name=\"usersub_test_fixtures\" "
              "usrsub_param_string=\"USER(1,,2)\"/>"));
  EXPECT_TRUE(hasError(fiesub, 7, "Force_Field id=7: usrsub_param_string=\"USER(1,,2)\", column 8: expected a number"));
  const Diagnostics badNumber = readAndBuildDeck(
      deck(model + "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
                   "<Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"10\" K23=\"stiff\"/>"));
  EXPECT_TRUE(hasError(badNumber, 8, "Force_Field id=7"));
  EXPECT_TRUE(hasError(badNumber, 8, "k23")) ;
  const Diagnostics nothing = readAndBuildDeck(
      deck(model + "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
                   "<Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"10\"/>"));
  EXPECT_TRUE(hasWarning(nothing, 8, "every stiffness, damping and preload is 0"));
}

}  // namespace
}  // namespace lodestone::testing
