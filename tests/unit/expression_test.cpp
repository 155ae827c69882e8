// The expression language: arithmetic and its precedence, numbers with the degree suffix, every function against
// the standard library or hand values, the marker measures against hand-computed values with a context that
// stands in for a running model, what an expression reports about itself, and every error with its column.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "solver/core/rotation.h"
#include "solver/expr/expression.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


// Markers and variables by id, TIME, and a record of which markers were asked for.
class FakeContext : public ExpressionContext {
 public:
  double now = 0;
  std::map<int, MarkerMotion> markers;
  std::map<int, double> variables;
  std::map<int, ContactLoads> contacts;
  std::map<std::pair<LoadSource, int>, MarkerLoads> elements;  // JOINT…: by kind and id
  std::map<std::pair<int, int>, MarkerLoads> atMarkers;        // FX…: by markers i and j
  std::map<int, FrictionMeasures> frictions;                   // FRICTION: by id
  mutable std::vector<int> asked;

  double time() const override { return now; }
  MarkerMotion marker(int id) const override {
    asked.push_back(id);
    return markers.at(id);
  }
  double variable(int id) const override { return variables.at(id); }
  std::optional<ContactLoads> contact(int id) const override {
    const auto found = contacts.find(id);
    return found == contacts.end() ? std::nullopt : std::optional<ContactLoads>(found->second);
  }
  std::optional<MarkerLoads> elementLoads(LoadSource source, int id) const override {
    const auto found = elements.find({source, id});
    return found == elements.end() ? std::nullopt : std::optional<MarkerLoads>(found->second);
  }
  std::optional<FrictionMeasures> friction(int id) const override {
    const auto found = frictions.find(id);
    return found == frictions.end() ? std::nullopt : std::optional<FrictionMeasures>(found->second);
  }
  std::optional<MarkerLoads> markerLoads(int i, int j) const override {
    const auto found = atMarkers.find({i, j});
    return found == atMarkers.end() ? std::nullopt : std::optional<MarkerLoads>(found->second);
  }
};

Expression compiled(const std::string& text) {
  std::variant<Expression, ExpressionError> result = Expression::compile(text);
  if (const ExpressionError* error = std::get_if<ExpressionError>(&result)) {
    ADD_FAILURE() << "'" << text << "' does not compile: column " << error->column << ": " << error->message;
    return std::get<Expression>(Expression::compile("0"));
  }
  return std::get<Expression>(std::move(result));
}

double valueOf(const std::string& text, const ExpressionContext& context) { return compiled(text).evaluate(context); }

double valueOf(const std::string& text) { return valueOf(text, FakeContext()); }

Matrix3 rotationAbout(const Vector3& axis, double angle) { return Eigen::AngleAxisd(angle, axis).toRotationMatrix(); }

TEST(ExpressionArithmetic, PrecedenceAndAssociativity) {
  const std::vector<std::pair<const char*, double>> table{
      {"2+3*4", 14},     {"(2+3)*4", 20},   {"-2**2", -4},     {"(-2)**2", 4},    {"-(2)**2", -4},
      {"2**3**2", 512},  {"10/4/5", 0.5},   {"10-4-3", 3},     {"8/2*4", 16},     {"2*-3", -6},
      {"2**-1", 0.5},    {"2*3**2", 18},    {"-2**2*3", -12},  {"1-2*3+4", -1},   {"+3", 3},
      {"--3", 3},        {"2--3", 5},       {"2**2**-1", std::sqrt(2.0)},         {"((7))", 7},
      {" ( 2 +3 )\t* 4 ", 20},
  };
  for (const auto& [text, expected] : table) EXPECT_DOUBLE_EQ(valueOf(text), expected) << text;
}

// Squares are computed as x·x (the correctly rounded square), other powers with pow, folded or not.
TEST(ExpressionArithmetic, SquaresAreProductsOtherPowersArePow) {
  FakeContext context;
  context.now = 1.1;
  EXPECT_EQ(valueOf("TIME**2", context), 1.1 * 1.1);
  EXPECT_EQ(valueOf("-TIME**2", context), -(1.1 * 1.1));
  EXPECT_EQ(valueOf("(-3)**2"), 9);
  EXPECT_DOUBLE_EQ(valueOf("TIME**2.5", context), std::pow(1.1, 2.5));
  EXPECT_DOUBLE_EQ(valueOf("2**TIME", context), std::pow(2.0, 1.1));
}

// Only a constant part that is not a number is an error; at run time the IEEE value is the answer.
TEST(ExpressionArithmetic, ValuesOutsideADomainAtRunTimeAreIeeeResults) {
  FakeContext context;
  context.now = -1;
  EXPECT_TRUE(std::isnan(valueOf("SQRT(TIME)", context)));
  EXPECT_EQ(valueOf("1/(TIME+1)", context), std::numeric_limits<double>::infinity());
}

TEST(ExpressionNumbers, DecimalExponentAndDegreeForms) {
  const std::vector<std::pair<const char*, double>> table{
      {"12", 12},          {"1.5", 1.5},           {".5", 0.5},          {"1.", 1},
      {"1e-3", 1e-3},      {"1.5E+2", 150},        {"2e2", 200},         {"180D", kPi},
      {"90D*2", kPi},      {"30d", kPi / 6},       {"1.5D", 1.5 * kPi / 180},
      {"1e2D", 100 * kPi / 180},                   {"1D-3", kPi / 180 - 3},  // D is degrees, never an exponent
  };
  for (const auto& [text, expected] : table) EXPECT_DOUBLE_EQ(valueOf(text), expected) << text;
}

TEST(ExpressionNames, ConstantsTimeAndAnyCase) {
  FakeContext context;
  context.now = 0.25;
  EXPECT_DOUBLE_EQ(valueOf("PI"), kPi);
  EXPECT_DOUBLE_EQ(valueOf("DTOR"), kPi / 180);
  EXPECT_DOUBLE_EQ(valueOf("RTOD"), 180 / kPi);
  EXPECT_DOUBLE_EQ(valueOf("TIME", context), 0.25);
  EXPECT_DOUBLE_EQ(valueOf("360D*TIME", context), kPi / 2);
  EXPECT_DOUBLE_EQ(valueOf("sin(pi/2)"), 1);
  EXPECT_DOUBLE_EQ(valueOf("Time * Pi", context), 0.25 * kPi);
  EXPECT_DOUBLE_EQ(valueOf("rtod*dtor"), 1);
  // The same compiled expression follows the context's time.
  const Expression ramp = compiled("2*TIME + 1");
  context.now = 3;
  EXPECT_DOUBLE_EQ(ramp.evaluate(context), 7);
  context.now = -1;
  EXPECT_DOUBLE_EQ(ramp.evaluate(context), -1);
}

// Each function once with constant arguments (computed while compiling) and once through TIME (computed while
// evaluating), both against the standard library.
TEST(ExpressionFunctions, MathAgreesWithTheStandardLibrary) {
  const double x = 0.3;
  const std::vector<std::pair<const char*, double>> unary{
      {"SIN", std::sin(x)},   {"COS", std::cos(x)},     {"TAN", std::tan(x)},   {"ASIN", std::asin(x)},
      {"ACOS", std::acos(x)}, {"ATAN", std::atan(x)},   {"SINH", std::sinh(x)}, {"COSH", std::cosh(x)},
      {"TANH", std::tanh(x)}, {"SQRT", std::sqrt(x)},   {"EXP", std::exp(x)},   {"LOG", std::log(x)},
      {"LOG10", std::log10(x)}, {"ABS", std::fabs(x)},  {"AINT", 0},            {"ANINT", 0},
  };
  FakeContext context;
  context.now = x;
  for (const auto& [name, expected] : unary) {
    EXPECT_DOUBLE_EQ(valueOf(std::string(name) + "(0.3)"), expected) << name;
    EXPECT_DOUBLE_EQ(valueOf(std::string(name) + "(TIME)", context), expected) << name;
  }
  const std::vector<std::pair<const char*, double>> binary{
      {"ATAN2", std::atan2(x, -2.0)}, {"MIN", -2}, {"MAX", x}, {"MOD", std::fmod(x, -2.0)}, {"SIGN", -x},
  };
  for (const auto& [name, expected] : binary) {
    EXPECT_DOUBLE_EQ(valueOf(std::string(name) + "(0.3, -2)"), expected) << name;
    EXPECT_DOUBLE_EQ(valueOf(std::string(name) + "(TIME, -2)", context), expected) << name;
  }
}

TEST(ExpressionFunctions, RoundingSignAndModuloFollowFortran) {
  EXPECT_EQ(valueOf("AINT(2.7)"), 2);
  EXPECT_EQ(valueOf("AINT(-2.7)"), -2);
  EXPECT_EQ(valueOf("ANINT(2.5)"), 3);
  EXPECT_EQ(valueOf("ANINT(-2.5)"), -3);
  EXPECT_EQ(valueOf("ANINT(2.4)"), 2);
  EXPECT_EQ(valueOf("SIGN(3, -0.1)"), -3);
  EXPECT_EQ(valueOf("SIGN(-3, 2)"), 3);
  EXPECT_EQ(valueOf("SIGN(-3, 0)"), 3) << "b = 0 counts as positive";
  EXPECT_EQ(valueOf("MOD(7, 3)"), 1);
  EXPECT_EQ(valueOf("MOD(-7, 3)"), -1) << "a - AINT(a/b)*b keeps the sign of a";
  EXPECT_EQ(valueOf("MOD(7.5, 2)"), 1.5);
}

TEST(ExpressionFunctions, StepsImpactBistopAndShfGiveHandValues) {
  // STEP: Δ = 0.25 → Δ²(3 − 2Δ) = 0.15625.
  EXPECT_DOUBLE_EQ(valueOf("STEP(0.25, 0, 0, 1, 1)"), 0.15625);
  EXPECT_DOUBLE_EQ(valueOf("STEP(0.25, 0, 2, 1, 6)"), 2 + 4 * 0.15625);
  EXPECT_DOUBLE_EQ(valueOf("STEP(-1, 0, 2, 1, 5)"), 2);
  EXPECT_DOUBLE_EQ(valueOf("STEP(2, 0, 2, 1, 5)"), 5);
  // STEP5: Δ³(10 − 15Δ + 6Δ²) = 0.015625 · 6.625.
  EXPECT_DOUBLE_EQ(valueOf("STEP5(0.25, 0, 0, 1, 1)"), 0.103515625);
  EXPECT_DOUBLE_EQ(valueOf("STEP5(0.5, 0, 0, 1, 1)"), 0.5);
  // IMPACT: penetration 0.1 → 100·0.1^1.5; damping STEP(0.9, 0.8, 10, 1, 0) = 5 times −ẋ = 2.
  EXPECT_NEAR(valueOf("IMPACT(0.9, -2, 1, 100, 1.5, 10, 0.2)"), 13.16227766016838, 1e-12);
  EXPECT_EQ(valueOf("IMPACT(1.1, -2, 1, 100, 1.5, 10, 0.2)"), 0) << "no force outside";
  EXPECT_EQ(valueOf("IMPACT(0.9, 10, 1, 100, 1.5, 10, 0.2)"), 0) << "never pulls";
  // BISTOP between 0 and 1 (k = 100, e = 1, cmax = 10, d = 0.1): 0.05 into either stop gives 5 from the spring
  // and a damping coefficient of 5 (halfway through d).
  EXPECT_NEAR(valueOf("BISTOP(-0.05, -1, 0, 1, 100, 1, 10, 0.1)"), 5 + 5 * 1, 1e-12);
  EXPECT_EQ(valueOf("BISTOP(0.5, 3, 0, 1, 100, 1, 10, 0.1)"), 0);
  EXPECT_NEAR(valueOf("BISTOP(1.05, 1, 0, 1, 100, 1, 10, 0.1)"), -(5 + 5 * 1), 1e-12);
  EXPECT_EQ(valueOf("BISTOP(1.05, -3, 0, 1, 100, 1, 10, 0.1)"), 0) << "the upper stop never pulls either";
  // SHF = a·sin(w·(x − x0) − phi) + b = 2·sin(3·0.5 − 0.25) + 1.
  EXPECT_DOUBLE_EQ(valueOf("SHF(1, 0.5, 2, 3, 0.25, 1)"), 2.8979692387111724);
  FakeContext context;
  context.now = 1;
  EXPECT_DOUBLE_EQ(valueOf("SHF(TIME, 0.5, 2, 3, 0.25, 1)", context), 2.8979692387111724);
  EXPECT_DOUBLE_EQ(valueOf("STEP(TIME, 0, 2, 4, 6)", context), 2 + 4 * 0.15625);
}

// Markers 2 and 3 move in every way at once; 5 is a frame spinning about z, 6 is fixed in it, 7 is at rest in
// ground and 8 slides along 5's x axis: what 5 sees of them has a simple answer.
class ExpressionMeasures : public ::testing::Test {
 protected:
  ExpressionMeasures() {
    MarkerMotion& two = context.markers[2];
    two.position = {1, 2, 3};
    two.rotation = rotationAbout(Vector3::UnitZ(), kPi / 2);  // x = (0, 1, 0), y = (−1, 0, 0)
    two.velocity = {4, 5, 6};
    two.angularVelocity = {0, 0, 2};
    two.acceleration = {7, 8, 9};
    two.angularAcceleration = {0, 0, 0.5};
    MarkerMotion& three = context.markers[3];
    three.position = {0, 1, 0};
    three.rotation = rotationAbout(Vector3::UnitX(), kPi / 2);  // x = (1, 0, 0), y = (0, 0, 1), z = (0, −1, 0)
    three.velocity = {1, 0, 0};
    three.angularVelocity = {0.5, 0, 0};
    three.acceleration = {0, 1, 0};
    three.angularAcceleration = {0.1, 0, 0};

    // ω = 3 about z, α = 1 about z, at the origin with ground's axes at this instant.
    MarkerMotion& frame = context.markers[5];
    frame.angularVelocity = {0, 0, 3};
    frame.angularAcceleration = {0, 0, 1};
    // Fixed in 5 at (2, 0, 0): v = ω × p = (0, 6, 0), a = α × p + ω × (ω × p) = (0, 2, 0) + (−18, 0, 0).
    MarkerMotion& fixed = context.markers[6];
    fixed.position = {2, 0, 0};
    fixed.velocity = {0, 6, 0};
    fixed.acceleration = {-18, 2, 0};
    context.markers[7].position = {2, 0, 0};  // at rest in ground
    // Sliding at 1.5 along 5's x through (2, 0, 0): v = (1.5, 0, 0) + ω × p; a adds Coriolis 2 ω × (1.5, 0, 0).
    MarkerMotion& sliding = context.markers[8];
    sliding.position = {2, 0, 0};
    sliding.velocity = {1.5, 6, 0};
    sliding.acceleration = {-18, 2 + 9, 0};
  }

  double value(const std::string& text) { return valueOf(text, context); }

  FakeContext context;
};

TEST_F(ExpressionMeasures, DisplacementInTheAxesOfAThirdMarker) {
  EXPECT_DOUBLE_EQ(value("DX(2)"), 1);
  EXPECT_DOUBLE_EQ(value("DY(2)"), 2);
  EXPECT_DOUBLE_EQ(value("DZ(2, 0)"), 3);
  EXPECT_DOUBLE_EQ(value("DM(2)"), std::sqrt(14.0));
  EXPECT_DOUBLE_EQ(value("DX(2,3)"), 1);
  EXPECT_DOUBLE_EQ(value("DY(2,3)"), 1);
  EXPECT_DOUBLE_EQ(value("DM(2,3)"), std::sqrt(11.0));
  // In the axes of 2, turned 90° about z: its x is ground's y, its y is ground's −x.
  EXPECT_NEAR(value("DX(2,0,2)"), 2, 1e-15);
  EXPECT_NEAR(value("DY(2,0,2)"), -1, 1e-15);
  EXPECT_NEAR(value("DZ(2,0,2)"), 3, 1e-15);
  // r = (1, 1, 3) in the axes of 3, turned 90° about x.
  EXPECT_NEAR(value("DX(2,3,3)"), 1, 1e-15);
  EXPECT_NEAR(value("DY(2,3,3)"), 3, 1e-15);
  EXPECT_NEAR(value("DZ(2,3,3)"), -1, 1e-15);
  EXPECT_DOUBLE_EQ(value("DX(3,2)"), -1);
}

TEST_F(ExpressionMeasures, VelocityInGroundAndSeenFromARotatingFrame) {
  EXPECT_DOUBLE_EQ(value("VX(2)"), 4);
  EXPECT_DOUBLE_EQ(value("VM(2)"), std::sqrt(77.0));
  EXPECT_DOUBLE_EQ(value("VX(2,3)"), 3);
  EXPECT_DOUBLE_EQ(value("VY(2,3)"), 5);
  EXPECT_NEAR(value("VX(2,3,2)"), 5, 1e-15);   // (3, 5, 6) on 2's x = ground y
  EXPECT_NEAR(value("VY(2,3,2)"), -3, 1e-15);  // and on 2's y = ground −x
  // Seen from 3 (ω = (0.5, 0, 0)): v − ω × r with r = (1, 2, 3), ω × r = (0, −1.5, 1).
  EXPECT_DOUBLE_EQ(value("VX(2,0,0,3)"), 4);
  EXPECT_DOUBLE_EQ(value("VY(2,0,0,3)"), 6.5);
  EXPECT_DOUBLE_EQ(value("VZ(2,0,0,3)"), 5);
  EXPECT_DOUBLE_EQ(value("VM(2,0,3)"), std::sqrt(16 + 6.5 * 6.5 + 25));
  // A marker fixed in the spinning frame does not move in it; one at rest in ground goes round it backwards.
  EXPECT_NEAR(value("VX(6,0,0,5)"), 0, 1e-15);
  EXPECT_NEAR(value("VY(6,0,0,5)"), 0, 1e-15);
  EXPECT_NEAR(value("VM(6,0,5)"), 0, 1e-15);
  EXPECT_DOUBLE_EQ(value("VY(7,0,0,5)"), -6);
  EXPECT_DOUBLE_EQ(value("VX(8,0,0,5)"), 1.5);
  EXPECT_NEAR(value("VY(8,0,0,5)"), 0, 1e-15);
  // Relative to 6 and seen from 5, 8 moves along x only.
  EXPECT_DOUBLE_EQ(value("VX(8,6,0,5)"), 1.5);
}

// VR, the rate of DM: v·r/|r| by hand; the same seen from any frame; NaN where the markers coincide.
TEST_F(ExpressionMeasures, RadialVelocityIsTheRateOfTheDistance) {
  EXPECT_DOUBLE_EQ(value("VR(2)"), (4 + 2 * 5 + 3 * 6) / std::sqrt(14.0));
  EXPECT_DOUBLE_EQ(value("VR(2,3)"), (3 + 5 + 3 * 6) / std::sqrt(11.0));  // r = (1, 1, 3), v = (3, 5, 6)
  EXPECT_NEAR(value("VR(2,3,5)"), value("VR(2,3)"), 1e-15 * value("VR(2,3)"));
  EXPECT_NEAR(value("VR(2,0,3)"), value("VR(2)"), 1e-15 * value("VR(2)"));
  EXPECT_DOUBLE_EQ(value("VR(8)"), 1.5);  // r = (2, 0, 0), v = (1.5, 6, 0)
  EXPECT_DOUBLE_EQ(value("VR(7)"), 0);    // at rest
  EXPECT_TRUE(std::isnan(value("VR(6,7)")));  // both at (2, 0, 0)
  EXPECT_TRUE(compiled("VR(2, 3)").usesVelocity());
}

TEST_F(ExpressionMeasures, AngularVelocityInTheAxesOfAThirdMarker) {
  EXPECT_DOUBLE_EQ(value("WZ(2)"), 2);
  EXPECT_DOUBLE_EQ(value("WX(2,3)"), -0.5);
  EXPECT_DOUBLE_EQ(value("WZ(2,3)"), 2);
  EXPECT_DOUBLE_EQ(value("WM(2,3)"), std::sqrt(4.25));
  EXPECT_NEAR(value("WX(2,0,2)"), 0, 1e-15);
  EXPECT_NEAR(value("WZ(2,0,2)"), 2, 1e-15);
  EXPECT_NEAR(value("WY(3,0,2)"), -0.5, 1e-15);  // (0.5, 0, 0) on 2's y = ground −x
}

TEST_F(ExpressionMeasures, AccelerationInGroundAndSeenFromARotatingFrame) {
  EXPECT_DOUBLE_EQ(value("ACCX(2)"), 7);
  EXPECT_DOUBLE_EQ(value("ACCY(2,3)"), 7);
  EXPECT_DOUBLE_EQ(value("ACCM(2)"), std::sqrt(194.0));
  EXPECT_NEAR(value("ACCX(2,0,2)"), 8, 1e-14);
  // Seen from 3: r = (1, 2, 3), ṙ = (4, 5, 6), ω = (0.5, 0, 0), α = (0.1, 0, 0):
  // a − α × r − 2 ω × ṙ + ω × (ω × r)
  //   = (7, 8, 9) − (0, −0.3, 0.2) − (0, −6, 5) + (0, −0.5, −0.75).
  EXPECT_NEAR(value("ACCX(2,0,0,3)"), 7, 1e-14);
  EXPECT_NEAR(value("ACCY(2,0,0,3)"), 13.8, 1e-14);
  EXPECT_NEAR(value("ACCZ(2,0,0,3)"), 3.05, 1e-14);
  // Fixed in the spinning, speeding-up frame: no acceleration in it (α and centripetal terms cancel).
  EXPECT_NEAR(value("ACCX(6,0,0,5)"), 0, 1e-14);
  EXPECT_NEAR(value("ACCY(6,0,0,5)"), 0, 1e-14);
  EXPECT_NEAR(value("ACCM(6,0,5)"), 0, 1e-14);
  // At rest in ground, seen from the frame: ω × (ω × r) = (−18, 0, 0) towards the axis, and α × r backwards.
  EXPECT_DOUBLE_EQ(value("ACCX(7,0,0,5)"), -18);
  EXPECT_DOUBLE_EQ(value("ACCY(7,0,0,5)"), -2);
  // Sliding at constant speed along the frame's x: the Coriolis term cancels too.
  EXPECT_NEAR(value("ACCX(8,0,0,5)"), 0, 1e-14);
  EXPECT_NEAR(value("ACCY(8,0,0,5)"), 0, 1e-14);
}

TEST_F(ExpressionMeasures, AngularAccelerationInGroundAndSeenFromARotatingFrame) {
  EXPECT_DOUBLE_EQ(value("WDTZ(2)"), 0.5);
  EXPECT_DOUBLE_EQ(value("WDTX(2,3)"), -0.1);
  EXPECT_DOUBLE_EQ(value("WDTM(2,3)"), std::sqrt(0.26));
  EXPECT_NEAR(value("WDTY(3,0,2)"), -0.1, 1e-15);  // (0.1, 0, 0) on 2's y = ground −x
  // Seen from 3 (ω_l = (0.5, 0, 0)): α_2 − α_3 − ω_l × (ω_2 − ω_3) = (−0.1, 0, 0.5) − (0.5, 0, 0) × (−0.5, 0, 2)
  //   = (−0.1, 0, 0.5) − (0, −1, 0).
  EXPECT_DOUBLE_EQ(value("WDTX(2,3,0,3)"), -0.1);
  EXPECT_DOUBLE_EQ(value("WDTY(2,3,0,3)"), 1);
  EXPECT_DOUBLE_EQ(value("WDTZ(2,3,0,3)"), 0.5);
  EXPECT_DOUBLE_EQ(value("WDTM(2,3,3)"), std::sqrt(0.01 + 1 + 0.25));
  // The spinning frame's own spin-up, seen from itself: ω × ω = 0 leaves α.
  EXPECT_DOUBLE_EQ(value("WDTZ(5,0,0,5)"), 1);
}

TEST_F(ExpressionMeasures, RotationAnglesOfKnownRotations) {
  context.markers[10].rotation = rotationAbout(Vector3::UnitX(), 0.4);
  context.markers[11].rotation = rotationAbout(Vector3::UnitY(), 0.4);
  context.markers[12].rotation = rotationAbout(Vector3::UnitZ(), kPi / 2 + 0.3);
  context.markers[13].rotation = rotationFromEuler313(0.3, 0.5, 0.7);
  context.markers[14].rotation = context.markers[2].rotation * rotationFromEuler313(-0.3, 1.2, 2.5);
  EXPECT_NEAR(value("AX(10)"), 0.4, 1e-15);
  EXPECT_NEAR(value("AY(10)"), 0, 1e-15);
  EXPECT_NEAR(value("AZ(10)"), 0, 1e-15);
  EXPECT_NEAR(value("AX(11)"), 0, 1e-15);
  EXPECT_NEAR(value("AY(11)"), 0.4, 1e-15);
  EXPECT_NEAR(value("AZ(11)"), 0, 1e-15);
  EXPECT_NEAR(value("AZ(2)"), kPi / 2, 1e-15);
  EXPECT_NEAR(value("AX(3)"), kPi / 2, 1e-15);
  EXPECT_NEAR(value("AZ(12, 2)"), 0.3, 1e-15) << "about 2's axes, which are already turned 90°";
  EXPECT_NEAR(value("PSI(13)"), 0.3, 1e-14);
  EXPECT_NEAR(value("THETA(13)"), 0.5, 1e-14);
  EXPECT_NEAR(value("PHI(13)"), 0.7, 1e-14);
  EXPECT_NEAR(value("PSI(14, 2)"), -0.3, 1e-14);
  EXPECT_NEAR(value("THETA(14, 2)"), 1.2, 1e-14);
  EXPECT_NEAR(value("PHI(14, 2)"), 2.5, 1e-14);
}

// YAW, PITCH, ROLL: R = Rz(yaw)·Ry(−pitch)·Rx(roll) built from the three turns (Adams' body-fixed 3-2-1 sequence with
// the pitch about −y), read back; near PITCH = 90° they stay accurate, and at it ROLL is 0 and YAW carries yaw ± roll.
TEST_F(ExpressionMeasures, YawPitchRollOfKnownTurns) {
  const auto turns = [](double yaw, double pitch, double roll) {
    return Matrix3(rotationAbout(Vector3::UnitZ(), yaw) * rotationAbout(Vector3::UnitY(), -pitch) *
                   rotationAbout(Vector3::UnitX(), roll));
  };
  context.markers[20].rotation = turns(0.3, 0.5, 0.7);
  context.markers[21].rotation = context.markers[2].rotation * turns(2.9, -1.4, -3.0);
  context.markers[22].rotation = rotationAbout(Vector3::UnitY(), -0.2);  // nose up about −y: pitch +0.2
  context.markers[23].rotation = turns(-0.6, kPi / 2 - 1e-7, 1.1);
  context.markers[24].rotation = turns(0.5, kPi / 2, 0.2);
  context.markers[25].rotation = turns(0.5, -kPi / 2, 0.2);
  EXPECT_NEAR(value("YAW(20)"), 0.3, 1e-15);
  EXPECT_NEAR(value("PITCH(20)"), 0.5, 1e-15);
  EXPECT_NEAR(value("ROLL(20)"), 0.7, 1e-15);
  EXPECT_NEAR(value("YAW(21, 2)"), 2.9, 1e-14) << "relative to 2, whose axes are turned 90° about z";
  EXPECT_NEAR(value("PITCH(21, 2)"), -1.4, 1e-14);
  EXPECT_NEAR(value("ROLL(21, 2)"), -3.0, 1e-14);
  EXPECT_NEAR(value("YAW(21)"), 2.9 + kPi / 2 - 2 * kPi, 1e-14) << "in ground: 2's 90° added, wrapped to (−π, π]";
  EXPECT_NEAR(value("PITCH(22)"), 0.2, 1e-15);
  EXPECT_NEAR(value("YAW(22)"), 0, 1e-15);
  EXPECT_NEAR(value("ROLL(22)"), 0, 1e-15);
  // 1e-7 from the singularity, cos(pitch) = 1e-7: the atan2 of terms that small loses about 1e-16/1e-7 each.
  EXPECT_NEAR(value("YAW(23)"), -0.6, 1e-8);
  EXPECT_NEAR(value("PITCH(23)"), kPi / 2 - 1e-7, 1e-15);
  EXPECT_NEAR(value("ROLL(23)"), 1.1, 1e-8);
  EXPECT_NEAR(value("YAW(24)"), 0.5 + 0.2, 1e-15) << "at PITCH = +90° only yaw + roll is defined";
  EXPECT_NEAR(value("PITCH(24)"), kPi / 2, 1e-15);
  EXPECT_EQ(value("ROLL(24)"), 0);
  EXPECT_NEAR(value("YAW(25)"), 0.5 - 0.2, 1e-15) << "at PITCH = −90° only yaw − roll is defined";
  EXPECT_NEAR(value("PITCH(25)"), -kPi / 2, 1e-15);
  EXPECT_EQ(value("ROLL(25)"), 0);
}

TEST_F(ExpressionMeasures, AsksOnlyForTheMarkersAMeasureUsesAndNeverForGround) {
  value("DM(2)");
  EXPECT_EQ(context.asked, std::vector<int>{2});
  context.asked.clear();
  value("VM(2, 0, 3) + AX(2, 3)");
  EXPECT_EQ(context.asked, (std::vector<int>{2, 3, 2, 3}));
  context.asked.clear();
  value("DX(2, 0, 0)");
  EXPECT_EQ(context.asked, std::vector<int>{2});
}

TEST_F(ExpressionMeasures, CombineWithArithmeticAndFunctions) {
  context.now = 0.5;
  // DZ(2) = 3 is above 0.1: the step is at 5; VX(2) = 4.
  EXPECT_DOUBLE_EQ(value("STEP(DZ(2,0,0), 0, 0, 0.1, 5) + 2*VX(2)"), 13);
  EXPECT_DOUBLE_EQ(value("dx(2) * time + Sqrt(dm(2)**2)"), 0.5 + std::sqrt(14.0));
}

TEST(ExpressionReport, MarkerIdsInOrderWithoutRepeatsOrGround) {
  EXPECT_EQ(compiled("DX(2,3) + VX(3,0,0,5) + DM(2) + AX(7, 0) + ACCZ(0, 9)").markerIds(),
            (std::vector<int>{2, 3, 5, 7, 9}));
  EXPECT_TRUE(compiled("TIME * 2").markerIds().empty());
  EXPECT_EQ(compiled("DX(0)").markerIds(), std::vector<int>{});
}

// Each marker id once, with the column where it first appears (what a message about a missing marker points at).
TEST(ExpressionReport, MarkerColumnsAreWhereEachIdFirstAppears) {
  const Expression expression = compiled("DX(2,3) + DM(2, -0) + VX(0, 12)");
  EXPECT_EQ(expression.markerIds(), (std::vector<int>{2, 3, 12}));
  EXPECT_EQ(expression.markerColumns(), (std::vector<int>{4, 6, 29}));
}

// VARVAL(id) asks the context for the variable, wherever it stands in the program; ids are reported like markers'.
TEST(ExpressionVariables, VarvalReadsTheContextsVariable) {
  FakeContext context;
  context.now = 2;
  context.variables = {{7, 1.5}, {30400100, -4}};
  EXPECT_DOUBLE_EQ(valueOf("VARVAL(7)", context), 1.5);
  EXPECT_DOUBLE_EQ(valueOf("3*varval(7) + VarVal( 30400100 )*TIME", context), 3 * 1.5 - 4 * 2);
  const Expression expression = compiled("VARVAL(7) + VARVAL(30400100)*VARVAL(7)");
  EXPECT_EQ(expression.variableIds(), (std::vector<int>{7, 30400100}));
  EXPECT_EQ(expression.variableColumns(), (std::vector<int>{8, 20}));
  EXPECT_TRUE(expression.markerIds().empty());
  // A context that does not give variables answers NaN.
  struct WithoutVariables : ExpressionContext {
    double time() const override { return 0; }
    MarkerMotion marker(int) const override { return {}; }
  };
  EXPECT_TRUE(std::isnan(compiled("VARVAL(7)").evaluate(WithoutVariables())));
}

// PINVAL(id, i) and POUVAL(id, i) are noted with their port, number and column, and read nothing (NaN) until bound;
// bound, each reads its variable as VARVAL would, and variableIds() lists it at the call's column.
TEST(ExpressionVariables, PlantReadsReadTheVariableTheyAreBoundTo) {
  Expression expression = compiled("2*PINVAL(12, 2) + pouval( 3,1 ) - PINVAL(12,1)");
  ASSERT_EQ(expression.plantReads().size(), 3u);
  const PlantRead& second = expression.plantReads()[1];
  EXPECT_EQ(second.port, PlantRead::Port::Output);
  EXPECT_EQ(second.id, 3);
  EXPECT_EQ(second.position, 1);
  EXPECT_EQ(second.column, 19);
  EXPECT_STREQ(second.function(), "POUVAL");
  EXPECT_STREQ(second.element(), "Control_PlantOutput");
  EXPECT_EQ(expression.plantReads()[0].variableId, 0);
  EXPECT_TRUE(expression.variableIds().empty());
  struct WithoutVariables : ExpressionContext {
    double time() const override { return 0; }
    MarkerMotion marker(int) const override { return {}; }
  };
  EXPECT_TRUE(std::isnan(expression.evaluate(WithoutVariables())));

  expression.bindPlantRead(0, 122);
  expression.bindPlantRead(1, 7);
  expression.bindPlantRead(2, 122);  // two reads of one variable: listed once, at the first read's column
  EXPECT_EQ(expression.plantReads()[1].variableId, 7);
  EXPECT_EQ(expression.variableIds(), (std::vector<int>{122, 7}));
  EXPECT_EQ(expression.variableColumns(), (std::vector<int>{3, 19}));
  FakeContext context;
  context.variables = {{122, 1.25}, {7, -3}};
  EXPECT_EQ(expression.evaluate(context), 2 * 1.25 + -3 - 1.25);
}

// CONTACT(id, jflag, comp, rm): the I or J side's force and torque, magnitudes or components in rm's axes; with
// three arguments, the index form (index 1: the penetration). Ids are reported like markers', rm among the markers.
TEST(ExpressionContacts, ContactReadsTheSideComponentAndAxesItNames) {
  FakeContext context;
  ContactLoads loads;
  loads.forceOnI = Vector3(3, -4, 12);
  loads.torqueOnI = Vector3(0.5, 0, 0);
  loads.forceOnJ = -loads.forceOnI;
  loads.torqueOnJ = Vector3(1, 2, -2);
  loads.penetration = 2.5e-4;
  context.contacts = {{300, loads}};
  MarkerMotion turned;  // x along ground y, y along ground −x: a quarter turn about z
  turned.rotation = rotationAbout(Vector3::UnitZ(), kPi / 2);
  context.markers = {{30, turned}};
  const std::vector<std::pair<const char*, double>> table{
      {"CONTACT(300,0,1,0)", 13}, {"CONTACT(300,0,2,0)", 3},   {"CONTACT(300,0,3,0)", -4},
      {"CONTACT(300,0,4,0)", 12}, {"CONTACT(300,0,5,0)", 0.5}, {"CONTACT(300,0,6,0)", 0.5},
      {"CONTACT(300,1,1,0)", 13}, {"CONTACT(300,1,2,0)", -3},  {"CONTACT(300,1,5,0)", 3},
      {"CONTACT(300,1,7,0)", 2},  {"CONTACT(300,1,8,0)", -2},  {"contact( 300 , 1, 0 )", 2.5e-4},
      {"CONTACT(300,1,30)", 2.5e-4},
  };
  for (const auto& [text, expected] : table) EXPECT_DOUBLE_EQ(valueOf(text, context), expected) << text;
  // In marker 30's axes: its x is ground y, its y ground −x.
  EXPECT_NEAR(valueOf("CONTACT(300,0,2,30)", context), -4, 1e-14);
  EXPECT_NEAR(valueOf("CONTACT(300,0,3,30)", context), -3, 1e-14);
  EXPECT_NEAR(valueOf("CONTACT(300,0,4,30)", context), 12, 1e-14);
  EXPECT_NEAR(valueOf("CONTACT(300,1,7,30)", context), -1, 1e-14);
  EXPECT_DOUBLE_EQ(valueOf("CONTACT(300,0,1,30)", context), 13) << "a magnitude needs no axes";
  const Expression expression = compiled("CONTACT(300,0,1,30) + CONTACT(301, 1, 0)");
  EXPECT_EQ(expression.contactIds(), (std::vector<int>{300, 301}));
  EXPECT_EQ(expression.contactColumns(), (std::vector<int>{9, 31}));
  EXPECT_EQ(expression.markerIds(), (std::vector<int>{30}));
  EXPECT_EQ(expression.markerColumns(), (std::vector<int>{17}));
  // A contact the context does not have (a bare context): NaN.
  EXPECT_TRUE(std::isnan(valueOf("CONTACT(301,0,1,0)", context)));
}

// CONTACT(id, index, rm) beyond index 1: each of Simscape's sensing measures at its index (docs/expressions.md), the
// point and the normal (23-28) resolved in rm's axes, the point from rm's origin; the others ignore rm.
TEST(ExpressionContacts, EveryIndexReadsItsMeasure) {
  FakeContext context;
  ContactLoads loads;
  loads.penetration = 2.5e-4;
  loads.inContact = 1;
  loads.separation = -2.5e-4;
  loads.normalForce = 13;
  loads.frictionForce = 4;
  loads.normalVelocity = -0.5;
  loads.tangentialVelocity = {0.25, -0.75};
  loads.pointInJ = Vector3(1, 2, 3);
  loads.frameInJ = Vector4(0.5, 0.5, -0.5, 0.5);
  loads.pointInI = Vector3(-4, -5, -6);
  loads.frameInI = Vector4(0.8, 0, 0.6, 0);
  loads.point = Vector3(7, 8, 9);
  loads.normal = Vector3(0, 0.6, 0.8);
  context.contacts = {{300, loads}};
  MarkerMotion turned;  // x along ground y, y along ground −x: a quarter turn about z, at (1, 1, 1)
  turned.rotation = rotationAbout(Vector3::UnitZ(), kPi / 2);
  turned.position = Vector3(1, 1, 1);
  context.markers = {{30, turned}};
  const std::vector<double> expected{2.5e-4, 1,  -2.5e-4, 13, 4,   -0.5, 0.25, -0.75, 1, 2, 3, 0.5, 0.5, -0.5,
                                     0.5,    -4, -5,      -6, 0.8, 0,    0.6,  0,     7, 8, 9, 0,   0.6, 0.8};
  ASSERT_EQ(expected.size(), static_cast<size_t>(kContactIndexCount));
  for (int index = 1; index <= kContactIndexCount; ++index) {
    const std::string text = "CONTACT(300," + std::to_string(index) + ",0)";
    EXPECT_DOUBLE_EQ(valueOf(text, context), expected[static_cast<size_t>(index - 1)]) << text;
    if (index < kContactPoint) {
      EXPECT_DOUBLE_EQ(valueOf("CONTACT(300," + std::to_string(index) + ",30)", context),
                       expected[static_cast<size_t>(index - 1)]) << "rm does not turn index " << index;
    }
  }
  // In marker 30's axes: the point (6, 7, 8) from its origin is (7, −6, 8), the normal (0.6, 0, 0.8).
  const std::vector<double> inMarker{7, -6, 8, 0.6, 0, 0.8};
  for (int k = 0; k < 6; ++k) {
    const std::string text = "CONTACT(300," + std::to_string(kContactPoint + k) + ",30)";
    EXPECT_NEAR(valueOf(text, context), inMarker[static_cast<size_t>(k)], 1e-14) << text;
  }
}

TEST(ExpressionContacts, ArgumentsThatCannotWorkAreErrorsAtTheirColumn) {
  const std::vector<std::tuple<const char*, int, const char*>> table{
      {"CONTACT(300,2,1,0)", 13, "jflag 2 of CONTACT is neither 0 (the loads on the I body) nor 1 (on the J body)"},
      {"CONTACT(300,0,9,0)", 15, "comp 9 of CONTACT is not 1 to 8 (1 |F|, 2-4 Fx Fy Fz, 5 |T|, 6-8 Tx Ty Tz)"},
      {"CONTACT(300,29,0)", 13, "index 29 of CONTACT(id, index, rm) is not 1 to 28 (1 penetration, 2 contact"},
      {"CONTACT(300,0,0)", 13, "index 0 of CONTACT(id, index, rm) is not 1 to 28"},
      {"CONTACT(300,0,1,0,0)", 1, "CONTACT takes 4 arguments (id, jflag, comp, rm) or 3 (id, index, rm), got 5"},
      {"CONTACT(300,TIME,1,0)", 13, "expected a literal (a whole number) as argument 2 of CONTACT, found 'TIME'"},
  };
  for (const auto& [text, column, message] : table) {
    std::variant<Expression, ExpressionError> result = Expression::compile(text);
    const ExpressionError* error = std::get_if<ExpressionError>(&result);
    ASSERT_NE(error, nullptr) << text;
    EXPECT_EQ(error->column, column) << text;
    EXPECT_NE(error->message.find(message), std::string::npos) << text << ": " << error->message;
  }
}

// JOINT, SFORCE… (id, jflag, comp, rm): the element's loads at its I or J marker, magnitudes or components in rm's
// axes, each function reading its element kind; FX…TM (i, j, k): the loads on marker i between i and j, in k's axes.
TEST(ExpressionElementLoads, EachFunctionReadsItsElementSideComponentAndAxes) {
  FakeContext context;
  MarkerLoads joint;
  joint.forceOnI = Vector3(3, -4, 12);
  joint.torqueOnI = Vector3(0.5, 0, 0);
  joint.forceOnJ = -joint.forceOnI;
  joint.torqueOnJ = Vector3(1, 2, -2);
  context.elements[{LoadSource::Joint, 7}] = joint;
  MarkerLoads spring;
  spring.forceOnI = Vector3(0, 0, -6);
  spring.forceOnJ = Vector3(0, 0, 6);
  for (const LoadSource source : {LoadSource::Jprim, LoadSource::Motion, LoadSource::ScalarForce,
                                  LoadSource::VectorForce, LoadSource::Bushing, LoadSource::SpringDamper,
                                  LoadSource::Beam, LoadSource::Field}) {
    context.elements[{source, 7}] = spring;
    spring.forceOnI.z() -= 1;  // each kind its own value: -6, -7, … -13
  }
  MarkerMotion turned;  // x along ground y, y along ground −x: a quarter turn about z
  turned.rotation = rotationAbout(Vector3::UnitZ(), kPi / 2);
  context.markers = {{30, turned}};
  const std::vector<std::pair<const char*, double>> table{
      {"JOINT(7,0,1,0)", 13}, {"JOINT(7,0,2,0)", 3},   {"JOINT(7,0,3,0)", -4}, {"JOINT(7,0,4,0)", 12},
      {"JOINT(7,0,5,0)", 0.5}, {"JOINT(7,0,6,0)", 0.5}, {"JOINT(7,0,7,0)", 0},  {"JOINT(7,1,1,0)", 13},
      {"JOINT(7,1,2,0)", -3}, {"JOINT(7,1,5,0)", 3},   {"JOINT(7,1,7,0)", 2},  {"joint( 7 , 1, 8, 0 )", -2},
      {"JPRIM(7,0,4,0)", -6}, {"MOTION(7,0,4,0)", -7}, {"SFORCE(7,0,4,0)", -8}, {"VFORCE(7,0,4,0)", -9},
      {"VTORQ(7,0,4,0)", -9}, {"GFORCE(7,0,4,0)", -9}, {"BUSH(7,0,4,0)", -10},  {"SPDP(7,0,4,0)", -11},
      {"SFORCE(7,1,4,0)", 6}, {"BUSH(7,0,1,0)", 10}, {"BEAM(7,0,4,0)", -12}, {"FIELD(7,0,4,0)", -13},
  };
  for (const auto& [text, expected] : table) EXPECT_DOUBLE_EQ(valueOf(text, context), expected) << text;
  // In marker 30's axes: its x is ground y, its y ground −x.
  EXPECT_NEAR(valueOf("JOINT(7,0,2,30)", context), -4, 1e-14);
  EXPECT_NEAR(valueOf("JOINT(7,0,3,30)", context), -3, 1e-14);
  EXPECT_NEAR(valueOf("JOINT(7,1,7,30)", context), -1, 1e-14);
  EXPECT_DOUBLE_EQ(valueOf("JOINT(7,0,1,30)", context), 13) << "a magnitude needs no axes";
  EXPECT_TRUE(std::isnan(valueOf("JOINT(8,0,1,0)", context))) << "an element the context cannot give: NaN";

  MarkerLoads onMarker;
  onMarker.forceOnI = Vector3(1, 2, 2);
  onMarker.torqueOnI = Vector3(0, 3, 4);
  context.atMarkers[{20, 10}] = onMarker;
  context.atMarkers[{20, 0}] = joint;
  const std::vector<std::pair<const char*, double>> atMarkers{
      {"FM(20,10)", 3}, {"FX(20,10)", 1}, {"FY(20,10,0)", 2}, {"FZ(20,10)", 2}, {"TM(20,10)", 5}, {"TX(20,10)", 0},
      {"TY(20,10)", 3}, {"TZ(20,10)", 4}, {"FX(20)", 3},      {"FM(20)", 13},   {"TX(20,0,0)", 0.5},
  };
  for (const auto& [text, expected] : atMarkers) EXPECT_DOUBLE_EQ(valueOf(text, context), expected) << text;
  EXPECT_NEAR(valueOf("FX(20,10,30)", context), 2, 1e-14);
  EXPECT_NEAR(valueOf("FY(20,10,30)", context), -1, 1e-14);
  EXPECT_NEAR(valueOf("TY(20,10,30)", context), 0, 1e-14);

  // What an expression reports: each call with its column, rm and the FX markers among the markers.
  const Expression expression = compiled("JOINT(7,0,1,30) + 2*FZ(20, 10, 30) + BUSH(9,1,2,0)");
  ASSERT_EQ(expression.loadReads().size(), 3u);
  EXPECT_STREQ(expression.loadReads()[0].function, "JOINT");
  EXPECT_EQ(expression.loadReads()[0].source, LoadSource::Joint);
  EXPECT_EQ(expression.loadReads()[0].id, 7);
  EXPECT_EQ(expression.loadReads()[0].column, 1);
  EXPECT_STREQ(expression.loadReads()[1].function, "FZ");
  EXPECT_EQ(expression.loadReads()[1].source, LoadSource::None);
  EXPECT_EQ(expression.loadReads()[1].id, 20);
  EXPECT_EQ(expression.loadReads()[1].column, 21);
  EXPECT_EQ(expression.loadReads()[2].source, LoadSource::Bushing);
  EXPECT_EQ(expression.loadReads()[2].column, 38);
  EXPECT_EQ(expression.markerIds(), (std::vector<int>{30, 20, 10}));
}

// FRICTION(id, comp[, rm]): 1-3 force, 4-6 torque, 7-12 the coefficients, 13-18 the slip, along the joint's J marker's
// axes unless rm names others (0: ground's).
TEST(ExpressionElementLoads, FrictionReadsEachGroupAlongTheJointsAxesOrRms) {
  FakeContext context;
  FrictionMeasures measures;
  measures.markerJ = 30;
  measures.force = Vector3(1, 2, 3);
  measures.torque = Vector3(4, 5, 6);
  measures.translationalCoefficient = Vector3(7, 8, 9);
  measures.rotationalCoefficient = Vector3(10, 11, 12);
  measures.slipVelocity = Vector3(13, 14, 15);
  measures.slipAngularVelocity = Vector3(16, 17, 18);
  context.frictions[9] = measures;
  MarkerMotion turned;  // x along ground y, y along ground −x
  turned.rotation = rotationAbout(Vector3::UnitZ(), kPi / 2);
  context.markers = {{30, turned}};
  for (int comp = 1; comp <= 18; ++comp) {
    // In ground, comp k reads k; in J's axes x reads ground y and y reads −(ground x).
    const std::string ground = "FRICTION(9, " + std::to_string(comp) + ", 0)";
    EXPECT_DOUBLE_EQ(valueOf(ground, context), comp) << ground;
    const int axis = (comp - 1) % 3;
    const double alongJ = axis == 0 ? comp + 1 : axis == 1 ? -(comp - 1) : comp;
    const std::string joint = "FRICTION(9, " + std::to_string(comp) + ")";
    EXPECT_NEAR(valueOf(joint, context), alongJ, 1e-14) << joint;
  }
  EXPECT_TRUE(std::isnan(valueOf("FRICTION(8, 1)", context))) << "an element the context cannot give: NaN";
  const Expression expression = compiled("2 * FRICTION(9, 6)");
  ASSERT_EQ(expression.loadReads().size(), 1u);
  EXPECT_EQ(expression.loadReads()[0].source, LoadSource::Friction);
  EXPECT_EQ(expression.loadReads()[0].column, 5);
}

TEST(ExpressionElementLoads, ArgumentsThatCannotWorkAreErrorsAtTheirColumn) {
  const std::vector<std::tuple<const char*, int, const char*>> table{
      {"JOINT(3,2,1,0)", 9, "jflag 2 of JOINT is neither 0 (the loads at the I marker) nor 1 (at the J marker)"},
      {"SFORCE(3,0,9,0)", 12, "comp 9 of SFORCE is not 1 to 8 (1 |F|, 2-4 Fx Fy Fz, 5 |T|, 6-8 Tx Ty Tz)"},
      {"SFORCE(3,0,0,0)", 12, "comp 0 of SFORCE is not 1 to 8"},
      {"BUSH(3,0,1)", 1, "BUSH takes 4 arguments (id, jflag, comp, rm), got 3"},
      {"JOINT(0,0,1,0)", 7, "Constraint_Joint id '0' of JOINT is 0; ids are positive"},
      {"MOTION(TIME,0,1,0)", 8, "expected a Motion_Joint id (a whole number) as argument 1 of MOTION, found 'TIME'"},
      {"GFORCE(3,0,1,-2)", 14, "marker id '-2' of GFORCE is negative; it is 0 or positive"},
      {"FM(2,3,4)", 1, "FM takes 1 or 2 marker ids, got 3"},
      {"TZ(2,3,4,5)", 1, "TZ takes 1 to 3 marker ids, got 4"},
      {"FX(0)", 4, "FX needs a marker i other than ground (0)"},
      {"FRICTION(3)", 1, "FRICTION takes 2 or 3 arguments (id, comp[, rm]), got 1"},
      {"FRICTION(3,19)", 12, "comp 19 of FRICTION is not 1 to 18"},
      {"FRICTION(3,0)", 12, "comp '0' of FRICTION is 0; it is positive"},
      {"FRICTION(3,1,-4)", 14, "marker id '-4' of FRICTION is negative"},
  };
  for (const auto& [text, column, message] : table) {
    std::variant<Expression, ExpressionError> result = Expression::compile(text);
    const ExpressionError* error = std::get_if<ExpressionError>(&result);
    ASSERT_NE(error, nullptr) << text;
    EXPECT_EQ(error->column, column) << text;
    EXPECT_NE(error->message.find(message), std::string::npos) << text << ": " << error->message;
  }
}

TEST(ExpressionReport, UsesAccelerationOnlyWithAccelerationMeasures) {
  EXPECT_TRUE(compiled("ACCX(2)").usesAcceleration());
  EXPECT_TRUE(compiled("1 + accm(2, 3)").usesAcceleration());
  EXPECT_TRUE(compiled("ACCZ(2,0,0,4)*0").usesAcceleration());
  EXPECT_TRUE(compiled("WDTZ(2)").usesAcceleration());
  EXPECT_TRUE(compiled("wdtm(2, 3, 4)").usesAcceleration());
  EXPECT_FALSE(compiled("DX(2) + VX(2) + WX(2) + AX(2) + PSI(2)").usesAcceleration());
}

TEST(ExpressionReport, KeepsItsText) {
  EXPECT_EQ(compiled(" 2*TIME ").text(), " 2*TIME ");
  const Expression copy = compiled("DX(4) + 1");
  EXPECT_EQ(copy.text(), "DX(4) + 1");
}

TEST(ExpressionErrors, EachSaysWhatWasExpectedAndWhere) {
  struct Case {
    std::string text;
    int column;
    std::string message;
  };
  const std::vector<Case> cases{
      {"", 1, "empty expression"},
      {"   ", 1, "empty expression"},
      {"(1+2", 1, "expected ')' to close '(' at column 1, found the end"},
      {"2*(1+2 3)", 8, "expected ')' to close '(' at column 3, found '3'"},
      {"1+2)", 4, "')' has no matching '('"},
      {"1+", 3, "expected a number, name or '(' after '+', found the end"},
      {"2*-", 4, "expected a number, name or '(' after '-', found the end"},
      {"*2", 1, "expected a number, name or '(', found '*'"},
      {"1+*2", 3, "expected a number, name or '(' after '+', found '*'"},
      {"()", 2, "expected a number, name or '(' after '(', found ')'"},
      {"2 3", 3, "expected an operator or the end, found '3'"},
      {"1 + 2,", 6, "expected an operator or the end, found ','"},
      {"2^3", 2, "'^' is not an operator; write ** for a power"},
      {"2 # 3", 3, "unexpected character '#'"},
      {"1e999", 1, "number '1e999' is out of range"},
      {"SINN(1)", 1, "unknown function 'SINN'"},
      {"1 + foo", 5, "unknown name 'foo'"},
      {"VARVAL(0)", 8, "Reference_Variable id '0' of VARVAL is 0; ids are positive"},
      {"VARVAL(-3)", 8, "Reference_Variable id '-3' of VARVAL is negative; ids are positive"},
      {"VARVAL(2.5)", 8, "Reference_Variable id '2.5' of VARVAL is not a whole number"},
      {"1+VARVAL(TIME)", 10, "expected a Reference_Variable id (a whole number) as argument 1 of VARVAL, found 'TIME'"},
      {"VARVAL(1, 2)", 1, "VARVAL takes 1 Reference_Variable id, got 2"},
      {"VARVAL()", 1, "VARVAL takes 1 Reference_Variable id, got 0"},
      {"PINVAL(3)", 1, "PINVAL takes 2 arguments (id, i), got 1"},
      {"POUVAL(3, 1, 2)", 1, "POUVAL takes 2 arguments (id, i), got 3"},
      {"PINVAL(0, 1)", 8, "Control_PlantInput id '0' of PINVAL is 0; ids are positive"},
      {"POUVAL(2, 0)", 11, "variable number '0' of POUVAL is 0; the variables count from 1"},
      {"PINVAL(2, 1.5)", 11, "variable number '1.5' of PINVAL is not a whole number"},
      {"2*fx()", 3, "FX takes 1 to 3 marker ids, got 0"},
      {"DELAY(2)", 1, "DELAY is not available yet in expressions"},
      {"PI(2)", 3, "PI is a constant, not a function"},
      {"time (2)", 6, "TIME is the simulation time, not a function"},
      {"2*\xC3\xA9", 3, "unexpected byte 0xC3 (an expression is plain ASCII text)"},
      {"SIN 1", 5, "expected '(' after SIN, found '1'"},
      {"DX", 3, "expected '(' after DX, found the end"},
      {"SIN(1,2)", 1, "SIN takes 1 argument, got 2"},
      {"SIN()", 1, "SIN takes 1 argument, got 0"},
      {"2*atan2(1)", 3, "ATAN2 takes 2 arguments, got 1"},
      {"STEP(TIME,0,0,1)", 1, "STEP takes 5 arguments, got 4"},
      {"MAX(1 2)", 7, "expected ',' or ')' after argument 1 of MAX, found '2'"},
      {"MAX(1, 2", 4, "expected ')' to close '(' at column 4, found the end"},
      {"MAX(1,)", 7, "expected a number, name or '(' after ',', found ')'"},
      {"DX(1,2,3,4)", 1, "DX takes 1 to 3 marker ids, got 4"},
      {"DM(1,2,3)", 1, "DM takes 1 or 2 marker ids, got 3"},
      {"VX(1,2,3,4,5)", 1, "VX takes 1 to 4 marker ids, got 5"},
      {"vm(1,2,3,4)", 1, "VM takes 1 to 3 marker ids, got 4"},
      {"DX()", 1, "DX takes 1 to 3 marker ids, got 0"},
      {"DX(1.5)", 4, "marker id '1.5' of DX is not a whole number"},
      {"DX(30D)", 4, "marker id '30D' of DX is not a whole number"},
      {"DX(2, -1)", 7, "marker id '-1' of DX is negative; ids are 0 (ground) or positive"},
      {"DX(1e10)", 4, "marker id '1e10' of DX is too large"},
      {"DX(TIME)", 4, "expected a marker id (a whole number) as argument 1 of DX, found 'TIME'"},
      {"DX(2+1)", 5, "expected ',' or ')' after argument 1 of DX, found '+'"},
      {"1/0", 1, "'1/0' is infinite"},
      {"2*SQRT(-1)", 3, "'SQRT(-1)' is not a number (NaN)"},
      {"STEP(TIME, 1, 0, 0, 1)", 1, "STEP needs x0 < x1, got x0 = 1 and x1 = 0"},
      {"BISTOP(DX(2), VX(2), 1, 1, 1e5, 1.5, 10, 0.1)", 1, "BISTOP needs x1 < x2, got x1 = 1 and x2 = 1"},
  };
  for (const Case& expected : cases) {
    const std::variant<Expression, ExpressionError> result = Expression::compile(expected.text);
    const ExpressionError* error = std::get_if<ExpressionError>(&result);
    if (!error) {
      ADD_FAILURE() << "'" << expected.text << "' compiled";
      continue;
    }
    EXPECT_EQ(error->message, expected.message) << expected.text;
    EXPECT_EQ(error->column, expected.column) << expected.text;
  }
}

// Names the compiler does not know are typing slips that do not disturb the syntax: each is said, left to right, and
// the text after them is still read (a mistake in the syntax itself ends the reading).
TEST(ExpressionErrors, EveryUnknownNameIsSaidInOnePass) {
  const auto problemsOf = [](const std::string& text) {
    std::vector<std::pair<int, std::string>> problems;
    const std::variant<Expression, ExpressionError> result = Expression::compile(text);
    if (const ExpressionError* error = std::get_if<ExpressionError>(&result)) {
      problems.emplace_back(error->column, error->message);
      for (const ExpressionError& further : error->further) problems.emplace_back(further.column, further.message);
    }
    return problems;
  };
  using Problems = std::vector<std::pair<int, std::string>>;
  EXPECT_EQ(problemsOf("SINN(TIME) + 2*COSS(DX(2), foo)"),
            (Problems{{1, "unknown function 'SINN'"}, {16, "unknown function 'COSS'"}, {28, "unknown name 'foo'"}}));
  EXPECT_EQ(problemsOf("delay(2) + SQRT(-1/bar)"),
            (Problems{{1, "DELAY is not available yet in expressions"},
                      {20, "unknown name 'bar'"}}))
      << "nothing is folded with an unknown value";
  EXPECT_EQ(problemsOf("SINN(1) + (2"),
            (Problems{{1, "unknown function 'SINN'"}, {11, "expected ')' to close '(' at column 11, found the end"}}));
  EXPECT_EQ(problemsOf("SINN(1 2) + COSS(1)"),
            (Problems{{1, "unknown function 'SINN'"},
                      {8, "expected ',' or ')' after argument 1 of 'SINN', found '2'"}}))
      << "a syntax mistake ends the reading";
}

TEST(ExpressionErrors, NestingTooDeepIsRefusedNotFollowed) {
  const std::string parentheses = std::string(300, '(') + "1" + std::string(300, ')');
  const auto deep = Expression::compile(parentheses);
  ASSERT_TRUE(std::holds_alternative<ExpressionError>(deep));
  EXPECT_EQ(std::get<ExpressionError>(deep).message, "expression nests more than 200 levels deep");
  EXPECT_EQ(std::get<ExpressionError>(deep).column, 201);
  // Each TIME waits on the stack for the sum to its right: the 65th no longer fits.
  std::string sums;
  for (int k = 0; k < 70; ++k) sums += "TIME+(";
  sums += "TIME" + std::string(70, ')');
  const auto wide = Expression::compile(sums);
  ASSERT_TRUE(std::holds_alternative<ExpressionError>(wide));
  EXPECT_EQ(std::get<ExpressionError>(wide).message,
            "expression needs more than 64 values at once; split it into simpler parts");
  EXPECT_EQ(std::get<ExpressionError>(wide).column, 64 * 6 + 1);
  // Just within both limits it works.
  std::string fits;
  for (int k = 0; k < 63; ++k) fits += "TIME+(";
  fits += "TIME" + std::string(63, ')');
  FakeContext context;
  context.now = 1;
  EXPECT_EQ(valueOf(fits, context), 64);
}

}  // namespace
}  // namespace lodestone
