// The pieces behind user subroutines: USER(...) strings, where a library is looked for, and the C utilities
// (c_sysfnc, c_sysary, c_step, c_impact, c_errmes, c_get_contact_post, c_akispl, c_cubspl) against hand-computed
// values, with a host that stands in for a running simulation.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "lodestone/usersub.h"
#include "plugins/usersub/subroutine_host.h"
#include "support/fake_subroutine_host.h"
#include "plugins/user_library.h"
#include "plugins/user_parameters.h"
#include "solver/core/rotation.h"
#include "solver/core/step_functions.h"
#include "support/text_files.h"

namespace lodestone {
namespace {

using testing::FakeHost;

TEST(UserParameters, ReadsNumbersInEveryNotation) {
  const UserParameters p = parseUserParameters("  user ( 500., 1.5,-0.5 ,1D-2, 2e3)  ");
  EXPECT_TRUE(p.error.empty()) << p.error;
  EXPECT_EQ(p.values, (std::vector<double>{500, 1.5, -0.5, 0.01, 2000}));
  EXPECT_TRUE(parseUserParameters("USER()").values.empty());
  EXPECT_TRUE(parseUserParameters("USER()").error.empty());
}

TEST(UserParameters, ErrorsSayWhatWasExpectedAndWhere) {
  const auto expectError = [](const char* text, int column, const std::string& message) {
    const UserParameters p = parseUserParameters(text);
    EXPECT_EQ(p.error, message) << text;
    EXPECT_EQ(p.column, column) << text;
    EXPECT_TRUE(p.values.empty());
  };
  expectError("FOO(1)", 1, "expected USER(p1, p2, ...), found 'F'");
  expectError("USER 1, 2", 6, "expected '(' after USER, found '1'");
  expectError("USER(1,,2)", 8, "expected a number, found ','");
  expectError("USER(1 2)", 8, "expected ',' or ')' after a number, found '2'");
  expectError("USER(1, 2", 10, "expected ',' or ')' after a number, found the end");
  expectError("USER(1e999)", 6, "'1e999' is not a number");
  expectError("USER(1) x", 9, "unexpected text after USER(...): 'x'");
}

TEST(UserLibraryLookup, RelativeNamesAreTriedInEachFolderWithAndWithoutLibAndSo) {
  const std::vector<std::string> tried = libraryCandidates("contact", "/decks", "/opt/a::/opt/b", "/usr/lib/lodestone");
  const std::vector<std::string> expected{
      "/decks/contact", "/decks/contact.so", "/decks/libcontact.so",
      "/opt/a/contact", "/opt/a/contact.so", "/opt/a/libcontact.so",
      "/opt/b/contact", "/opt/b/contact.so", "/opt/b/libcontact.so",
      "/usr/lib/lodestone/contact", "/usr/lib/lodestone/contact.so", "/usr/lib/lodestone/libcontact.so"};
  EXPECT_EQ(tried, expected);
  EXPECT_EQ(libraryCandidates("/abs/libx.so", "/decks", "/opt/a", ""), std::vector<std::string>{"/abs/libx.so"});
  EXPECT_EQ(libraryCandidates("libx.so", "", "", ""), std::vector<std::string>{"./libx.so"});
  EXPECT_EQ(libraryCandidates("sub/x", "/d", "", ""),
            (std::vector<std::string>{"/d/sub/x", "/d/sub/x.so", "/d/sub/libx.so"}));
}

// A script that is a FIFO is passed over (opening it would wait for a writer for ever), and the error says why.
TEST(UserLibraryLookup, ACandidateThatIsNoRegularFileIsNamedWithWhatItIs) {
  const std::filesystem::path fifo = testing::scratchFile("contact.py");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string missing = testing::scratchFile("nowhere/contact.py").string();
  try {
    findUserFile("script", "contact.py", {fifo.string(), missing});
    ADD_FAILURE() << "found " << fifo;
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "script \"contact.py\" not found (tried " + fifo.string() +
                                             " (is a FIFO, not a regular file), " + missing +
                                             "; set LODESTONE_USERSUB_PATH to add folders)");
  }
  std::filesystem::remove(fifo);
}

class Utilities : public ::testing::Test {
 protected:
  FakeHost host;
  ScopedSubroutineHost installed{host};
};

TEST_F(Utilities, SysfncMeasuresBetweenMarkersInTheAxesOfAThird) {
  const MarkerMotion& i = host.markers[10];
  const MarkerMotion& j = host.markers[20];
  double value = 0;
  int errflg = -1;
  int ipar[3] = {10, 20, 20};
  c_sysfnc("DX", ipar, 3, &value, &errflg);
  EXPECT_EQ(errflg, 0);
  EXPECT_NEAR(value, j.rotation.col(0).dot(i.position - j.position), 1e-14);
  c_sysfnc("dm", ipar, 2, &value, &errflg);
  EXPECT_NEAR(value, (i.position - j.position).norm(), 1e-14);
  c_sysfnc("VY", ipar, 3, &value, &errflg);
  EXPECT_NEAR(value, j.rotation.col(1).dot(i.velocity - j.velocity), 1e-14);
  c_sysfnc("WZ", ipar, 1, &value, &errflg);  // relative to ground, in ground axes
  EXPECT_NEAR(value, 4, 1e-14);
  c_sysfnc("WM", ipar, 2, &value, &errflg);
  EXPECT_NEAR(value, std::sqrt(17.0), 1e-14);
  c_sysfnc("DZ", ipar, 1, &value, &errflg);
  EXPECT_NEAR(value, 3, 1e-14);
  c_sysfnc("TIME", nullptr, 0, &value, &errflg);
  EXPECT_EQ(value, 1.25);
  EXPECT_EQ(errflg, 0);
}

TEST_F(Utilities, SysfncRefusesWhatItCannotMeasure) {
  double value = 7;
  int errflg = 0;
  int unknownMarker[1] = {99};
  c_sysfnc("DX", unknownMarker, 1, &value, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_EQ(host.lastProblem, "c_sysfnc: no Reference_Marker id=99 in the model");
  int ipar[4] = {10, 20, 0, 20};
  c_sysfnc("VX", ipar, 4, &value, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_NE(host.lastProblem.find("other than ground (0) is not supported"), std::string::npos);
  c_sysfnc("ACCX", ipar, 1, &value, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_NE(host.lastProblem.find("unknown function \"ACCX\""), std::string::npos);
  EXPECT_EQ(value, 7) << "a failed call leaves the output alone";
}

TEST_F(Utilities, SysaryGivesDisplacementWithAnglesAndVelocities) {
  double states[6];
  int count = 0, errflg = -1;
  int ipar[3] = {10, 20, 0};
  c_sysary("DISP", ipar, 3, states, &count, &errflg);
  ASSERT_EQ(errflg, 0);
  ASSERT_EQ(count, 6);
  const MarkerMotion& i = host.markers[10];
  const MarkerMotion& j = host.markers[20];
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(states[k], (i.position - j.position)[k], 1e-14);
  // The angles rebuild the relative rotation.
  const Matrix3 relative = rotationFromEuler313(states[3], states[4], states[5]);
  EXPECT_LT((relative - j.rotation.transpose() * i.rotation).cwiseAbs().maxCoeff(), 1e-12);
  c_sysary("VEL", ipar, 2, states, &count, &errflg);
  ASSERT_EQ(count, 6);
  EXPECT_NEAR(states[1], -2, 1e-14);
  EXPECT_NEAR(states[3], -1, 1e-14);
  EXPECT_NEAR(states[5], 4, 1e-14);
  c_sysary("TVEL", ipar, 2, states, &count, &errflg);
  EXPECT_EQ(count, 3);
}

TEST_F(Utilities, StepAndItsDerivativesMatchFiniteDifferences) {
  double value = 0, plus = 0, minus = 0, slope = 0, curvature = 0;
  int errflg = -1;
  const double x = 0.37, h = 1e-5;
  c_step(x, 0.2, 1.0, 0.8, 3.0, 0, &value, &errflg);
  EXPECT_EQ(errflg, 0);
  EXPECT_DOUBLE_EQ(value, step(x, 0.2, 1.0, 0.8, 3.0));
  c_step(x + h, 0.2, 1.0, 0.8, 3.0, 0, &plus, &errflg);
  c_step(x - h, 0.2, 1.0, 0.8, 3.0, 0, &minus, &errflg);
  c_step(x, 0.2, 1.0, 0.8, 3.0, 1, &slope, &errflg);
  c_step(x, 0.2, 1.0, 0.8, 3.0, 2, &curvature, &errflg);
  EXPECT_NEAR(slope, (plus - minus) / (2 * h), 1e-8);
  EXPECT_NEAR(curvature, (plus - 2 * value + minus) / (h * h), 1e-3);
  c_step(x, 0.8, 1.0, 0.2, 3.0, 0, &value, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_NE(host.lastProblem.find("x0 (0.8) must be smaller than x1 (0.2)"), std::string::npos) << host.lastProblem;
}

TEST_F(Utilities, ImpactIsTheOneSidedSpringDamperWithItsDerivatives) {
  double force[2] = {0, 0}, partials[2] = {0, 0};
  int errflg = -1;
  // 0.5 mm into contact, approaching at 0.1 m/s, damping fully on (penetration beyond d).
  c_impact(-5e-4, -0.1, 0.0, 1e7, 1.5, 20, 1e-4, 0, force, &errflg);
  EXPECT_EQ(errflg, 0);
  EXPECT_NEAR(force[0], 1e7 * std::pow(5e-4, 1.5) + 20 * 0.1, 1e-9);
  c_impact(-5e-4, -0.1, 0.0, 1e7, 1.5, 20, 1e-4, 1, partials, &errflg);
  EXPECT_NEAR(partials[0], -1e7 * 1.5 * std::sqrt(5e-4), 1e-6);
  EXPECT_NEAR(partials[1], -20, 1e-12);
  c_impact(1e-3, -0.1, 0.0, 1e7, 1.5, 20, 1e-4, 0, force, &errflg);
  EXPECT_EQ(force[0], 0) << "apart: no force";
  c_impact(-1e-5, 10, 0.0, 1e7, 1.5, 1e5, 1e-4, 0, force, &errflg);
  EXPECT_EQ(force[0], 0) << "separating fast: the damper would pull, so the force is clamped at 0";
  c_impact(-1e-5, 0, 0.0, 1e7, 0.5, 20, 1e-4, 0, force, &errflg);
  EXPECT_EQ(errflg, 1);
}

TEST_F(Utilities, ErrmesPassesTheMessageAndTheStopRequest) {
  c_errmes(1, "too deep", 300, "stop");
  EXPECT_EQ(host.lastMessage, "300:too deep:error:stop");
  c_errmes(0, "note", 300, "CONTINUE");
  EXPECT_EQ(host.lastMessage, "300:note");
}

TEST_F(Utilities, ContactPostResultsInAMarkersAxes) {
  int count = 0, errflg = -1, n = 0;
  c_get_ncontacts(300, 1, 2, &count, &errflg);
  EXPECT_EQ(count, 2);
  EXPECT_EQ(errflg, 0);
  double result[3] = {0, 0, 0};
  c_get_contact_post(300, 1, 2, "pd", 0, 1, result, &n, &errflg);
  EXPECT_EQ(n, 1);
  EXPECT_EQ(result[0], 2e-4);
  c_get_contact_post(300, 1, 2, "TOTAL_FORCE", 0, 1, result, &n, &errflg);
  EXPECT_EQ(n, 3);
  EXPECT_EQ(Vector3(result[0], result[1], result[2]), Vector3(1, 0, 5));
  // POS from marker 20's origin, in its axes.
  const MarkerMotion& j = host.markers[20];
  c_get_contact_post(300, 1, 2, "POS", 20, 1, result, &n, &errflg);
  const Vector3 expected = j.rotation.transpose() * (Vector3(1, 1, 1) - j.position);
  EXPECT_LT((Vector3(result[0], result[1], result[2]) - expected).norm(), 1e-14);
  c_get_contact_post(300, 1, 2, "POS", 0, 2, result, &n, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_NE(host.lastProblem.find("index 2 is outside the pair's 2 contact points"), std::string::npos);
  c_get_ncontacts(300, 2, 1, &count, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_EQ(count, 0);
}

// c_akispl and c_cubspl ask the host for the fit they name and hand back its three numbers; what they cannot do they
// refuse with errflg = 1 and a reason (the numbers themselves: ReferenceSpline.PartialsAre…, SplineUtilityRun).
TEST_F(Utilities, AkisplAndCubsplReturnTheHostsArrayOfTheirFit) {
  double array[3] = {-1, -1, -1};
  int errflg = -1;
  c_akispl(0.5, 0.25, 77, 1, array, &errflg);
  EXPECT_EQ(errflg, 0);
  EXPECT_EQ(host.lastSpline, std::make_tuple(true, 77, 0.5, 0.25, 1));
  EXPECT_EQ(std::vector<double>(array, array + 3), (std::vector<double>{3.0, 1.0, 1.0}));
  c_cubspl(0.5, 0.25, 77, 2, array, &errflg);
  EXPECT_EQ(errflg, 0);
  EXPECT_EQ(host.lastSpline, std::make_tuple(false, 77, 0.5, 0.25, 2));
  EXPECT_EQ(std::vector<double>(array, array + 3), (std::vector<double>{3.0, 2.0, 2.0}));
  c_akispl(0.5, 0, 78, 0, array, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_EQ(host.lastProblem, "c_akispl: no Reference_Spline id=78 in the model");
  c_cubspl(0.5, 0, 77, 3, array, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_EQ(host.lastProblem, "c_cubspl: iord must be 0, 1 or 2, not 3");
  c_akispl(0.5, 0, 77, 0, nullptr, &errflg);
  EXPECT_EQ(errflg, 1);
  EXPECT_EQ(host.lastProblem, "c_akispl: array is a null pointer");
}

TEST(UtilitiesWithoutAHost, FailInsteadOfCrashing) {
  double value = 0;
  int errflg = 0;
  int ipar[1] = {10};
  c_sysfnc("DX", ipar, 1, &value, &errflg);
  EXPECT_EQ(errflg, 1);
  c_errmes(1, "nobody listens", 1, "STOP");  // no host: nothing to do, and no crash
  double result[3];
  int n = 0;
  c_get_contact_post(1, 1, 2, "PD", 0, 0, result, &n, &errflg);
  EXPECT_EQ(errflg, 1);
  errflg = 0;
  c_akispl(0.5, 0, 77, 0, result, &errflg);
  EXPECT_EQ(errflg, 1);
  // Pure functions need no host.
  c_step(0.5, 0, 0, 1, 1, 0, &value, &errflg);
  EXPECT_EQ(errflg, 0);
  EXPECT_DOUBLE_EQ(value, 0.5);
}

}  // namespace
}  // namespace lodestone
