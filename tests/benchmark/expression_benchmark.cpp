// Cost of one evaluation of a compiled expression, in nanoseconds over ~10⁷ evaluations with the time (and so the
// marker's motion) changing between them. Prints figures; asserts nothing.
//
//   expression_benchmark [evaluations]     (default 10000000)
//
// The context is as cheap as a context can be (one marker moving at constant velocity), so the figures are the
// expression's own cost: the program loop, the math, and for measures the markerMeasure calls and the copies of
// MarkerMotion a context returns.
//
// Measured on the 2-core development VM (RelWithDebInfo, machine shared with other work, load ≈ 2.7, so ±30%),
// ns per evaluation, two runs: TIME 6–12; the math expression 76–89 (the same written in C++ and compiled: 26);
// STEP + SHF 56–65; DZ(2) 36–37; STEP(DZ…) + 2*VX(2) 93–120; IMPACT(DZ, VZ, …) 144–161; ACCX(2, 3, 4, 5) 105–108.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>

#include "solver/expr/expression.h"

using namespace lodestone;

namespace {

// Marker 2 moves at constant velocity (1, 0, −0.2) from (0, 0, 0.2); every other id is at rest at the origin.
class MovingMarker : public ExpressionContext {
 public:
  double now = 0;
  double time() const override { return now; }
  MarkerMotion marker(int id) const override {
    MarkerMotion motion;
    if (id != 2) return motion;
    motion.velocity = Vector3(1, 0, -0.2);
    motion.position = Vector3(0, 0, 0.2) + now * motion.velocity;
    return motion;
  }
};

void timeEvaluations(const char* text, long evaluations, volatile double& sink) {
  const std::variant<Expression, ExpressionError> compiled = Expression::compile(text);
  if (const ExpressionError* error = std::get_if<ExpressionError>(&compiled)) {
    std::printf("%s: column %d: %s\n", text, error->column, error->message.c_str());
    std::exit(1);
  }
  const Expression& expression = std::get<Expression>(compiled);
  MovingMarker context;
  const auto start = std::chrono::steady_clock::now();
  double sum = 0;
  for (long i = 0; i < evaluations; ++i) {
    context.now = 1e-6 * static_cast<double>(i & 0xFFFFF);
    sum += expression.evaluate(context);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sink = sink + sum;  // a volatile keeps the optimiser from dropping the evaluations
  std::printf("%10.2f  %s\n", 1e9 * seconds / static_cast<double>(evaluations), text);
}

}  // namespace

int main(int argc, char** argv) {
  const long evaluations = argc > 1 ? std::atol(argv[1]) : 10000000L;
  volatile double sink = 0;
  std::printf("%10s  %s\n", "ns/eval", "expression");
  timeEvaluations("TIME", evaluations, sink);
  timeEvaluations("SIN(TIME)*EXP(-0.5*TIME) + SQRT(TIME**2 + 1) - MOD(TIME, 0.3)", evaluations, sink);
  timeEvaluations("STEP(TIME, 0, 0, 0.5, 360D) + 2*PI*SHF(TIME, 0, 1, 10, 0, 0)", evaluations, sink);
  timeEvaluations("DZ(2)", evaluations, sink);
  timeEvaluations("STEP(DZ(2,0,0), 0, 0, 0.1, 5) + 2*VX(2)", evaluations, sink);
  timeEvaluations("IMPACT(DZ(2), VZ(2), 0.1, 1e5, 1.5, 10, 0.01)", evaluations, sink);
  timeEvaluations("ACCX(2, 3, 4, 5)", evaluations, sink);
  std::printf("(checksum %g)\n", static_cast<double>(sink));
  return 0;
}
