// The state layout names the model object behind every state entry, so failures can say which body.
#include <gtest/gtest.h>

#include "solver/driver/state_layout.h"

namespace lodestone {
namespace {

TEST(StateLayoutTest, ThirteenEntriesPerBodyAllDifferential) {
  Model model;
  model.bodies.resize(3);
  const StateLayout layout(model);
  EXPECT_EQ(layout.size(), 39);
  EXPECT_EQ(layout.bodyOffset(2), 26);
  EXPECT_EQ(layout.eulerParameterOffset(1), 16);
  EXPECT_EQ(layout.bodyOfVariable(25), 1);
  EXPECT_EQ(layout.bodyOfVariable(39), -1);
  for (double flag : layout.differentialMask()) EXPECT_EQ(flag, 1.0);
}

TEST(StateLayoutTest, DescribesAVariableByBodyIdLocationAndQuantity) {
  Model model;
  model.bodies.resize(2);
  model.bodies[1].id = 3;
  model.bodies[1].loc.file = "deck.xml";
  model.bodies[1].loc.line = 12;
  const StateLayout layout(model);
  EXPECT_EQ(layout.describeVariable(model, 13 + 10), "Body_Rigid id=3 (deck.xml:12), angular velocity wx (body axes)");
  EXPECT_EQ(layout.describeVariable(model, 13 + 4), "Body_Rigid id=3 (deck.xml:12), Euler parameter e1");
}

}  // namespace
}  // namespace lodestone
