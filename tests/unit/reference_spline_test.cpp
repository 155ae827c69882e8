// Reference_Spline's interpolants against hand-computed values (Akima's slopes and the natural cubic spline of four
// points worked out on paper), exact values at the knots, the end conditions and both kinds of extrapolation, a
// family of curves linear in z; and the expression functions that read data or need none (AKISPL, CUBSPL, INTERP,
// ARYVAL, IF, POLY, CHEBY, FORCOS, FORSIN, HAVSIN, DIM) against hand values, with their errors and columns.
// (scipy's Akima and cubic splines are compared in tests/python/test_splines.py.)
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <tuple>
#include <variant>

#include "elements/reference_spline.h"
#include "solver/expr/expression.h"

namespace lodestone {
namespace {


// x = 0 1 2 3, y = 0 0 1 1. By hand: segment slopes m = 0, 1, 0, continued as −1, −2 before and −1, −2 after;
// Akima's slopes t = −1/2, 1/2, 1/2, −1/2 (every pair of weights equal); the natural spline's M1 = 2, M2 = −2
// from 4·M1 + M2 = 6, M1 + 4·M2 = −6.
ReferenceSpline stepData(bool linearExtrapolate = false) {
  const std::vector<double> x{0, 1, 2, 3}, y{0, 0, 1, 1};
  ReferenceSpline spline{.id = 5, .x = x, .z = {0}, .linearExtrapolate = linearExtrapolate};
  spline.curves.push_back({.y = y, .akimaSlopes = akimaSlopes(x, y),
                           .cubicSecondDerivatives = naturalCubicSecondDerivatives(x, y)});
  return spline;
}

TEST(ReferenceSpline, AkimaSlopesAndNaturalSecondDerivativesAreTheHandValues) {
  const std::vector<double> x{0, 1, 2, 3}, y{0, 0, 1, 1};
  EXPECT_EQ(akimaSlopes(x, y), (std::vector<double>{-0.5, 0.5, 0.5, -0.5}));
  const std::vector<double> second = naturalCubicSecondDerivatives(x, y);
  ASSERT_EQ(second.size(), 4u);
  EXPECT_EQ(second[0], 0.0);
  EXPECT_NEAR(second[1], 2.0, 1e-15);
  EXPECT_NEAR(second[2], -2.0, 1e-15);
  EXPECT_EQ(second[3], 0.0);
}

// Between the knots, by hand: Akima on [0, 1] is −s/2 + s²/2, the cubic −s/3 + s³/3: both −1/8 at 0.5, with slopes
// 0 and −1/12 and curvatures 1 and 1; on [1, 2] Akima is s/2 + 3s²/2 − s³, 1/2 at 1.5.
TEST(ReferenceSpline, BetweenKnotsMatchesHandComputedPolynomials) {
  const ReferenceSpline spline = stepData();
  EXPECT_NEAR(spline.evaluate(SplineMethod::Akima, 0.5, 0, 0), -0.125, 1e-15);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Akima, 0.5, 0, 1), 0.0, 1e-15);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Akima, 0.5, 0, 2), 1.0, 1e-15);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Akima, 1.5, 0, 0), 0.5, 1e-15);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Cubic, 0.5, 0, 0), -0.125, 1e-15);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Cubic, 0.5, 0, 1), -1.0 / 12, 1e-15);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Cubic, 0.5, 0, 2), 1.0, 1e-15);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Linear, 1.25, 0, 0), 0.25, 1e-15);
  EXPECT_EQ(spline.evaluate(SplineMethod::Linear, 1.25, 0, 1), 1.0);
  EXPECT_EQ(spline.evaluate(SplineMethod::Linear, 1.25, 0, 2), 0.0);
}

TEST(ReferenceSpline, ValuesAtTheKnotsAreTheDataExactly) {
  const std::vector<double> x{-1.5, -0.2, 0.1, 0.7, 2.3, 2.31, 4};
  const std::vector<double> y{3.25, -1.1, 0.3, 0.30000000000000004, 7.7, -2.5, 1e-9};
  ReferenceSpline spline{.id = 1, .x = x, .z = {0}};
  spline.curves.push_back({.y = y, .akimaSlopes = akimaSlopes(x, y),
                           .cubicSecondDerivatives = naturalCubicSecondDerivatives(x, y)});
  for (const SplineMethod method : {SplineMethod::Akima, SplineMethod::Cubic, SplineMethod::Linear}) {
    for (size_t k = 0; k < x.size(); ++k) {
      EXPECT_EQ(spline.evaluate(method, x[k], 123.0, 0), y[k]) << "knot " << k;  // z is ignored for one curve
    }
  }
  // The natural end conditions: no curvature at either end.
  EXPECT_EQ(spline.evaluate(SplineMethod::Cubic, x.front(), 0, 2), 0.0);
  EXPECT_NEAR(spline.evaluate(SplineMethod::Cubic, x.back(), 0, 2), 0.0, 1e-12);
}

TEST(ReferenceSpline, StraightLinesAreReproduced) {
  const std::vector<double> x{0, 0.5, 2, 2.5, 7}, y{1, 2, 5, 6, 15};  // y = 2x + 1
  ReferenceSpline spline{.id = 1, .x = x, .z = {0}};
  spline.curves.push_back({.y = y, .akimaSlopes = akimaSlopes(x, y),
                           .cubicSecondDerivatives = naturalCubicSecondDerivatives(x, y)});
  for (const SplineMethod method : {SplineMethod::Akima, SplineMethod::Cubic, SplineMethod::Linear}) {
    for (const double at : {-1.0, 0.3, 1.7, 4.4, 9.0}) {
      EXPECT_NEAR(spline.evaluate(method, at, 0, 0), 2 * at + 1, 1e-13) << at;
      EXPECT_NEAR(spline.evaluate(method, at, 0, 1), 2.0, 1e-13) << at;
      EXPECT_NEAR(spline.evaluate(method, at, 0, 2), 0.0, 1e-12) << at;
    }
  }
}

// Beyond the data the end segment's cubic goes on (by hand −s/3 + s³/3 at s = −1: 0, and 1 at s = 4 on the last
// segment by symmetry); with linear_extrap the tangent line at the end knot: 1/3 at x = −1 (slope −1/3), no curvature.
TEST(ReferenceSpline, ExtrapolatesWithTheEndCubicOrTheTangentLine) {
  EXPECT_NEAR(stepData().evaluate(SplineMethod::Cubic, -1, 0, 0), 0.0, 1e-15);
  EXPECT_NEAR(stepData().evaluate(SplineMethod::Cubic, 4, 0, 0), 1.0, 1e-15);
  const ReferenceSpline linear = stepData(true);
  EXPECT_NEAR(linear.evaluate(SplineMethod::Cubic, -1, 0, 0), 1.0 / 3, 1e-15);
  EXPECT_NEAR(linear.evaluate(SplineMethod::Cubic, -1, 0, 1), -1.0 / 3, 1e-15);
  EXPECT_EQ(linear.evaluate(SplineMethod::Cubic, -1, 0, 2), 0.0);
  EXPECT_NEAR(linear.evaluate(SplineMethod::Cubic, 5, 0, 0), 1 - 2.0 / 3, 1e-15);  // slope −1/3 at x = 3
  EXPECT_NEAR(linear.evaluate(SplineMethod::Akima, 4, 0, 0), 0.5, 1e-15);          // Akima's −1/2 at x = 3
  EXPECT_NEAR(linear.evaluate(SplineMethod::Akima, -2, 0, 1), -0.5, 1e-15);
}

// Two curves at z = 0 and z = 10, the second 2·y + 1: linear in z between them and beyond.
// Two curves over x = 0 1 2 3: stepData's (z = 0) and 2·y + 1 (z = 10).
ReferenceSpline stepFamily() {
  const std::vector<double> x{0, 1, 2, 3}, y0{0, 0, 1, 1}, y1{1, 1, 3, 3};
  ReferenceSpline family{.id = 7, .x = x, .z = {0, 10}};
  for (const auto* y : {&y0, &y1}) {
    family.curves.push_back({.y = *y, .akimaSlopes = akimaSlopes(x, *y),
                             .cubicSecondDerivatives = naturalCubicSecondDerivatives(x, *y)});
  }
  return family;
}

TEST(ReferenceSpline, FamilyIsLinearInZBetweenItsCurves) {
  const ReferenceSpline family = stepFamily();
  ASSERT_TRUE(family.isFamily());
  EXPECT_EQ(family.evaluate(SplineMethod::Akima, 2, 10, 0), 3.0);
  EXPECT_EQ(family.evaluate(SplineMethod::Akima, 2, 0, 0), 1.0);
  // At x = 0.5 the first curve is −1/8 (by hand above), the second 2·(−1/8) + 1 = 3/4.
  EXPECT_NEAR(family.evaluate(SplineMethod::Akima, 0.5, 2.5, 0), 0.75 * -0.125 + 0.25 * 0.75, 1e-15);
  EXPECT_NEAR(family.evaluate(SplineMethod::Cubic, 0.5, 15, 0), -0.5 * -0.125 + 1.5 * 0.75, 1e-15);
}

// c_akispl's and c_cubspl's ARRAY. The family above: its second curve is 2·y0 + 1, which both fits keep (Akima's
// weights all scale by 2), so y1 = 2·y0(x) + 1 and y1' = 2·y0'(x) at every x, and between z = 0 and 10
// ∂y/∂z = (y0(x) + 1)/10, ∂²y/∂x∂z = y0'(x)/10, ∂²y/∂z² = 0, with y0 and y0' those of stepData (hand-checked above),
// and ∂ⁿy/∂xⁿ = 1.25·y0⁽ⁿ⁾ at z = 2.5.
TEST(ReferenceSpline, PartialsAreMotionSolvesArrayOfValueAndDerivatives) {
  const ReferenceSpline family = stepFamily();
  const ReferenceSpline curve = stepData();
  for (const SplineMethod method : {SplineMethod::Akima, SplineMethod::Cubic}) {
    const double at = 1.25, z = 2.5;
    const double value = curve.evaluate(method, at, 0, 0), slope = curve.evaluate(method, at, 0, 1);
    const double curvature = curve.evaluate(method, at, 0, 2);
    const std::array<double, 3> order0 = family.partials(method, at, z, 0);
    EXPECT_EQ(order0[0], family.evaluate(method, at, z, 0));
    EXPECT_EQ(order0[1], 0.0);
    EXPECT_EQ(order0[2], 0.0);
    const std::array<double, 3> order1 = family.partials(method, at, z, 1);
    EXPECT_NEAR(order1[0], 1.25 * slope, 1e-15);
    EXPECT_NEAR(order1[1], (value + 1) / 10, 1e-15);
    EXPECT_EQ(order1[2], 0.0);
    const std::array<double, 3> order2 = family.partials(method, at, z, 2);
    EXPECT_NEAR(order2[0], 1.25 * curvature, 1e-14);
    EXPECT_NEAR(order2[1], slope / 10, 1e-15);
    EXPECT_EQ(order2[2], 0.0);
    // A single curve does not depend on z.
    EXPECT_EQ(curve.partials(method, at, 7, 1), (std::array<double, 3>{slope, 0, 0}));
    EXPECT_EQ(curve.partials(method, at, 7, 2), (std::array<double, 3>{curvature, 0, 0}));
  }
}

// The comparisons above are of numbers that are not zero.
TEST(ReferenceSpline, PartialsAreCheckedWhereTheCurveBendsAndClimbs) {
  for (const SplineMethod method : {SplineMethod::Akima, SplineMethod::Cubic}) {
    EXPECT_GT(std::fabs(stepData().evaluate(method, 1.25, 0, 1)), 0.5);
    EXPECT_GT(std::fabs(stepData().evaluate(method, 1.25, 0, 2)), 0.5);
  }
}

// ---- the expression functions -----------------------------------------------------------------------------------

class DataContext : public ExpressionContext {
 public:
  double now = 0;
  ReferenceSpline data = stepData();
  mutable std::tuple<SplineMethod, int, double, double, int> lastSpline{};
  double time() const override { return now; }
  MarkerMotion marker(int) const override { return {}; }
  double spline(SplineMethod method, int id, double x, double z, int order) const override {
    lastSpline = {method, id, x, z, order};
    return id == 5 ? data.evaluate(method, x, z, order) : std::nan("");
  }
  double arrayValue(int id, int position) const override { return id == 3 ? 10.0 * position + 0.5 : std::nan(""); }
};

Expression compiledSpline(const std::string& text) {
  auto result = Expression::compile(text);
  if (auto* error = std::get_if<ExpressionError>(&result)) {
    ADD_FAILURE() << text << ": column " << error->column << ": " << error->message;
    return std::get<Expression>(Expression::compile("0"));
  }
  return std::get<Expression>(std::move(result));
}

double valueOf(const std::string& text, double time = 0) {
  DataContext context;
  context.now = time;
  return compiledSpline(text).evaluate(context);
}

TEST(DataFunctions, SplineCallsPassTheirArgumentsToTheContext) {
  DataContext context;
  context.now = 0.5;
  EXPECT_NEAR(compiledSpline("AKISPL(TIME, 0, 5)").evaluate(context), -0.125, 1e-15);
  EXPECT_EQ(context.lastSpline, std::make_tuple(SplineMethod::Akima, 5, 0.5, 0.0, 0));
  EXPECT_NEAR(compiledSpline("CUBSPL(TIME, 2*TIME, 5, 1)").evaluate(context), -1.0 / 12, 1e-15);
  EXPECT_EQ(context.lastSpline, std::make_tuple(SplineMethod::Cubic, 5, 0.5, 1.0, 1));
  EXPECT_NEAR(compiledSpline("INTERP(TIME + 0.75, 1, 5)").evaluate(context), 0.25, 1e-15);
  EXPECT_EQ(context.lastSpline, std::make_tuple(SplineMethod::Linear, 5, 1.25, 0.0, 0));
  EXPECT_NEAR(compiledSpline("INTERP(TIME, 3, 5, 2)").evaluate(context), 1.0, 1e-15);
  EXPECT_EQ(context.lastSpline, std::make_tuple(SplineMethod::Cubic, 5, 0.5, 0.0, 2));
  // A constant argument is not folded with the call: the data are read when the program runs.
  EXPECT_NEAR(compiledSpline("AKISPL(1.5, 0, 5)").evaluate(context), 0.5, 1e-15);
  EXPECT_EQ(compiledSpline("ARYVAL(3, 2) + 1").evaluate(context), 21.5);
  EXPECT_TRUE(std::isnan(compiledSpline("ARYVAL(4, 1)").evaluate(context)));
}

TEST(DataFunctions, AnExpressionListsTheDataItNames) {
  const Expression expression = compiledSpline("AKISPL(TIME,0,5) + 2*CUBSPL(TIME, 1, 6, 2) - ARYVAL(3,4)");
  const std::vector<DataReference>& references = expression.dataReferences();
  ASSERT_EQ(references.size(), 3u);
  EXPECT_EQ(references[0].function, "AKISPL");
  EXPECT_EQ(references[0].id, 5);
  EXPECT_EQ(references[0].column, 1);
  EXPECT_EQ(references[1].function, "CUBSPL");
  EXPECT_EQ(references[1].column, 22);
  EXPECT_EQ(references[1].orderOrPosition, 2);
  EXPECT_EQ(references[2].kind, DataReference::Kind::Array);
  EXPECT_EQ(references[2].column, 46);
  EXPECT_EQ(references[2].orderOrPosition, 4);
}

// Hand values: IF picks by the sign of its first argument (MotionSolve's ':' or a ','); POLY(3, 1, 1, 2, 3) =
// 1 + 2·2 + 3·4; CHEBY at u = 0.5: 1·1 + 2·0.5 + 3·(2·0.25 − 1); FORCOS with w·(x − x0) = π/3: 1 + 2·cos(π/3) +
// 3·cos(2π/3); FORSIN with π/6; HAVSIN half way and a quarter of the way from 2 to 4; DIM the positive difference.
TEST(PlainFunctions, MatchHandComputedValues) {
  EXPECT_EQ(valueOf("IF(-1: 10, 20, 30)"), 10.0);
  EXPECT_EQ(valueOf("IF(0: 10, 20, 30)"), 20.0);
  EXPECT_EQ(valueOf("IF(2, 10, 20, 30)"), 30.0);
  EXPECT_EQ(valueOf("IF(TIME - 1: 10, 20, 30)", 0.5), 10.0);
  EXPECT_EQ(valueOf("IF(TIME - 1: 10, 20, 30)", 1.0), 20.0);
  EXPECT_EQ(valueOf("IF(TIME - 1: 10, 20, TIME*30)", 1.5), 45.0);
  EXPECT_EQ(valueOf("POLY(3, 1, 1, 2, 3)"), 17.0);
  EXPECT_EQ(valueOf("POLY(TIME, 1, 1, 2, 3)", 3), 17.0);
  EXPECT_EQ(valueOf("POLY(TIME, 0, 4)", 3), 4.0);
  EXPECT_NEAR(valueOf("CHEBY(TIME, 1, 1, 2, 3)", 1.5), 0.5, 1e-15);
  EXPECT_NEAR(valueOf("CHEBY(TIME, 1, 1, 2, 3, 4)", 1.5), 0.5 + 4 * (2 * 0.5 * -0.5 - 0.5), 1e-15);  // T3 = −1
  EXPECT_NEAR(valueOf("FORCOS(TIME, 0, PI/3, 1, 2, 3)", 1), 0.5, 1e-15);
  EXPECT_NEAR(valueOf("FORSIN(TIME, 0, PI/6, 1, 2, 3)", 1), 2 + 3 * std::sqrt(3.0) / 2, 1e-15);
  EXPECT_EQ(valueOf("HAVSIN(TIME, 1, 2, 2, 4)", 1.5), 3.0);
  EXPECT_NEAR(valueOf("HAVSIN(TIME, 1, 2, 2, 4)", 1.25), 3 - std::sqrt(0.5), 1e-15);
  EXPECT_EQ(valueOf("HAVSIN(TIME, 1, 2, 2, 4)", 0.5), 2.0);
  EXPECT_EQ(valueOf("HAVSIN(TIME, 1, 2, 2, 4)", 7), 4.0);
  EXPECT_EQ(valueOf("DIM(TIME, 3)", 5), 2.0);
  EXPECT_EQ(valueOf("DIM(TIME, 3)", 1), 0.0);
  EXPECT_EQ(valueOf("dim(5, 3) + if(1:0,0,1)"), 3.0);  // names are not case-sensitive; constants fold
  EXPECT_NEAR(valueOf("FORCOS(1, 0, PI/3, 1, 2, 3)"), 0.5, 1e-15);
}

struct Problem {
  const char* text;
  int column;
  const char* message;
};

TEST(DataFunctions, MistakesAreReportedAtTheirColumn) {
  const Problem problems[] = {
      {"AKISPL(TIME, 0)", 1, "AKISPL takes 3 or 4 arguments (x, z, id[, iord]), got 2"},
      {"1 + INTERP(TIME)", 5, "INTERP takes 3 or 4 arguments (x, method, id[, iord]), got 1"},
      {"INTERP(TIME, 2, 5)", 14, "method 2 of INTERP is neither 1 (linear) nor 3 (cubic)"},
      {"CUBSPL(TIME, 0, 5, 3)", 20, "iord 3 of CUBSPL is not 0, 1 or 2"},
      {"AKISPL(TIME, 0, 1.5)", 17, "Reference_Spline id '1.5' of AKISPL is not a whole number"},
      {"AKISPL(TIME, 0, TIME)", 17, "expected a Reference_Spline id (a whole number) as argument 3 of AKISPL"},
      {"ARYVAL(3, 0)", 11, "element number '0' of ARYVAL is 0; elements count from 1"},
      {"ARYVAL(3)", 1, "ARYVAL takes 2 arguments (id, n), got 1"},
      {"IF(TIME: 1, 2)", 14, "IF takes a condition and three values, IF(e: neg, zero, pos); expected ',' after "
                             "argument 3, found ')'"},
      {"IF(TIME 1, 2, 3)", 9, "expected ':' after argument 1"},
      {"POLY(TIME, 1)", 1, "POLY takes 3 to 33 arguments, POLY(x, x0, a0, ..., a30), got 2"},
      {"FORSIN(TIME, 1, 2)", 1, "FORSIN takes 4 to 34 arguments"},
      {"HAVSIN(TIME, 2, 0, 1, 1)", 1, "HAVSIN needs x0 < x1, got x0 = 2 and x1 = 1"},
      {"DIM(TIME)", 1, "DIM takes 2 arguments, got 1"},
      {"2*CURVE(TIME, 0, 1, 5)", 3, "CURVE is not available yet (Reference_ParamCurve's spline is parameterised by "
                                    "chord length"},
      {"TIME: 1", 5, "expected an operator or the end, found ':'"},
  };
  for (const Problem& problem : problems) {
    auto result = Expression::compile(problem.text);
    const ExpressionError* error = std::get_if<ExpressionError>(&result);
    ASSERT_NE(error, nullptr) << problem.text;
    EXPECT_EQ(error->column, problem.column) << problem.text << ": " << error->message;
    EXPECT_NE(error->message.find(problem.message), std::string::npos) << problem.text << ": " << error->message;
  }
}

}  // namespace
}  // namespace lodestone
