// Reference_Variable in a built model: chains of VARVAL as long as a deck makes them are checked for cycles and
// evaluated without recursing once per link (a recursion overflowed the call stack at some ten thousand links),
// and each variable is evaluated once per state however many read it.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "elements/expression_context.h"
#include "elements/reference_variable.h"

namespace lodestone {
namespace {

// Long enough that one call frame per link overflows an 8 MB stack, in Release and under the sanitizers.
constexpr int kChainLinks = 200'000;

ReferenceVariableSpec variable(long id, const std::string& expression) {
  ReferenceVariableSpec spec;
  spec.loc.file = "deck.xml";
  spec.loc.line = static_cast<int>(id);
  spec.loc.column = 1;
  spec.loc.element = "Reference_Variable";
  spec.loc.id = id;
  spec.id = id;
  spec.type = "EXPRESSION";
  spec.expr = expression;
  return spec;
}

// Variable k reads variable k + 1 and adds one; the last reads TIME, so variable 1 is TIME + links - 1.
std::vector<ReferenceVariableSpec> chain(int links) {
  std::vector<ReferenceVariableSpec> specs;
  specs.reserve(static_cast<size_t>(links));
  for (long id = 1; id < links; ++id) specs.push_back(variable(id, "VARVAL(" + std::to_string(id + 1) + ") + 1"));
  specs.push_back(variable(links, "TIME"));
  return specs;
}

TEST(ReferenceVariables, ALongChainIsCheckedAndEvaluatedAtEveryState) {
  Model model;
  Diagnostics diagnostics;
  model.variables = buildVariableModel(chain(kChainLinks), model, diagnostics);
  ASSERT_FALSE(diagnostics.hasErrors()) << diagnostics.formatAll();
  ModelExpressionContext context(model);
  for (const double time : {0.5, 2.0}) {
    context.setState(time, {});
    EXPECT_EQ(context.variable(1), time + (kChainLinks - 1));
    EXPECT_EQ(context.variable(kChainLinks / 2), time + (kChainLinks - kChainLinks / 2));
  }
}

TEST(ReferenceVariables, ACycleAtTheEndOfALongChainIsFound) {
  std::vector<ReferenceVariableSpec> specs = chain(kChainLinks);
  specs.back().expr = "VARVAL(" + std::to_string(kChainLinks - 1) + ")";
  Model model;
  Diagnostics diagnostics;
  model.variables = buildVariableModel(specs, model, diagnostics);
  ASSERT_EQ(diagnostics.errorCount(), 1) << diagnostics.formatAll();
  EXPECT_NE(diagnostics.entries()[0].message.find("depends on its own value"), std::string::npos);
  EXPECT_EQ(diagnostics.entries()[0].where.id, kChainLinks - 1);
}

// Variables 2 and 3 both read variable 4, which reads 5: a diamond, each evaluated once and read from the cache.
TEST(ReferenceVariables, VariablesReadByManyAreSharedWithinAState) {
  Model model;
  Diagnostics diagnostics;
  model.variables = buildVariableModel({variable(1, "VARVAL(2) + VARVAL(3)"), variable(2, "VARVAL(4)"),
                                        variable(3, "2*VARVAL(4)"), variable(4, "VARVAL(5) + 1"),
                                        variable(5, "TIME")},
                                       model, diagnostics);
  ASSERT_FALSE(diagnostics.hasErrors()) << diagnostics.formatAll();
  ModelExpressionContext context(model);
  context.setState(1.0, {});
  EXPECT_EQ(context.variable(1), 6.0);
  EXPECT_EQ(context.variable(3), 4.0);
  context.setState(3.0, {});
  EXPECT_EQ(context.variable(3), 8.0);
  EXPECT_EQ(context.variable(1), 12.0);
}

}  // namespace
}  // namespace lodestone
