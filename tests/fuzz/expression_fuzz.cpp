// Fuzz target: an expression's text through Expression::compile, once as an element's expression and once as a
// contact law's (which may read DELTA, SLIP_T1…), and each program that compiles evaluated once.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "solver/expr/expression.h"

namespace {

// Fixed, nonzero answers, so that evaluation runs every operation on ordinary numbers (folding has seen only
// constants). Variables and contacts keep the base class's NaN: a model checks their ids before evaluating.
class FixedContext : public lodestone::ExpressionContext {
 public:
  double time() const override { return 0.25; }
  lodestone::MarkerMotion marker(int id) const override {
    lodestone::MarkerMotion motion;
    motion.position = lodestone::Vector3(0.1 * id, -0.2, 0.3);
    motion.velocity = lodestone::Vector3(1, 2, -3);
    motion.angularVelocity = lodestone::Vector3(-0.5, 0.25, 4);
    motion.acceleration = lodestone::Vector3(0, -9.81, 1);
    motion.angularAcceleration = lodestone::Vector3(7, 0, -1);
    return motion;
  }
  double contactPoint(lodestone::ContactPointSymbol symbol) const override {
    return 1e-3 * (1 + static_cast<int>(symbol));
  }
};

void compileAndEvaluate(std::string_view text, lodestone::ContactPointSymbols contactPoint) {
  const auto compiled = lodestone::Expression::compile(text, contactPoint);
  if (const auto* expression = std::get_if<lodestone::Expression>(&compiled)) {
    (void)expression->evaluate(FixedContext());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  compileAndEvaluate(text, 0);
  using lodestone::ContactPointSymbol;
  using lodestone::contactPointSymbol;
  compileAndEvaluate(text, contactPointSymbol(ContactPointSymbol::Penetration) |
                               contactPointSymbol(ContactPointSymbol::PenetrationRate) |
                               contactPointSymbol(ContactPointSymbol::SlipT1) |
                               contactPointSymbol(ContactPointSymbol::SlipT2) |
                               contactPointSymbol(ContactPointSymbol::NormalForce));
  return 0;
}
