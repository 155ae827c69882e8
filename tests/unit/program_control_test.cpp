// parseModifyCommand: the Adams commands MODIFY executes (ACCGRAV, ACTIVATE, DEACTIVATE) become the deck changes
// <Command>'s elements make; anything else is refused with the reason.
#include <gtest/gtest.h>

#include "solver/driver/program_control.h"

namespace lodestone {
namespace {

SourceLoc controlLoc() {
  SourceLoc loc;
  loc.file = "deck.xml";
  loc.line = 30;
  loc.column = 5;
  loc.element = "UserProgramControl";
  return loc;
}

ModelSpec deckWithGravity() {
  ModelSpec spec;
  spec.gravity = ForceGravitySpec{};
  spec.gravity->grav_x = 1;
  spec.gravity->grav_y = 2;
  spec.gravity->grav_z = -9.81;
  ForceScalarTwoBodySpec force{};
  force.id = 7;
  spec.scalarForces.push_back(force);
  return spec;
}

TEST(ParseModifyCommand, AccgravSetsTheComponentsItNamesAndKeepsTheOthers) {
  ModelSpec spec = deckWithGravity();
  const ModifyParse all = parseModifyCommand("ACCGRAV/IGRAV=0, JGRAV=0, KGRAV=-3.72742", spec, controlLoc());
  ASSERT_TRUE(all.change) << all.refusal;
  all.change->apply(spec);
  EXPECT_EQ(spec.gravity->grav_x, 0.0);
  EXPECT_EQ(spec.gravity->grav_y, 0.0);
  EXPECT_EQ(spec.gravity->grav_z, -3.72742);
  EXPECT_EQ(all.description, "gravity IGRAV=0, JGRAV=0, KGRAV=-3.72742");

  // One component, in lower case with spaces, as the docs' CONSUB writes them one per call.
  const ModifyParse one = parseModifyCommand("  accgrav / jgrav =   -1.5 ", spec, controlLoc());
  ASSERT_TRUE(one.change) << one.refusal;
  one.change->apply(spec);
  EXPECT_EQ(spec.gravity->grav_x, 0.0);
  EXPECT_EQ(spec.gravity->grav_y, -1.5);
  EXPECT_EQ(spec.gravity->grav_z, -3.72742);
}

TEST(ParseModifyCommand, AccgravGivesGravityToADeckWithout) {
  ModelSpec spec;
  const ModifyParse parse = parseModifyCommand("ACCGRAV/KGRAV=-9.80665", spec, controlLoc());
  ASSERT_TRUE(parse.change);
  parse.change->apply(spec);
  ASSERT_TRUE(spec.gravity);
  EXPECT_EQ(spec.gravity->grav_x, 0.0);
  EXPECT_EQ(spec.gravity->grav_z, -9.80665);
  EXPECT_EQ(spec.gravity->loc.line, 30);
}

TEST(ParseModifyCommand, ActivateAndDeactivateSwitchTheNamedElement) {
  ModelSpec spec = deckWithGravity();
  const ModifyParse off = parseModifyCommand("DEACTIVATE/SFORCE, ID=7", spec, controlLoc());
  ASSERT_TRUE(off.change) << off.refusal;
  off.change->apply(spec);
  EXPECT_FALSE(spec.scalarForces[0].active);
  EXPECT_EQ(off.description, "deactivates SFORCE id=7");
  const ModifyParse on = parseModifyCommand("activate/sforce, id=7", spec, controlLoc());
  ASSERT_TRUE(on.change) << on.refusal;
  on.change->apply(spec);
  EXPECT_TRUE(spec.scalarForces[0].active);
}

// Every kind activationTargets names for a type is looked for in the deck, not only the first: a Force_Field (FIELD),
// a Force_Scalar_OneBody (SFORCE) and a Motion_Marker (MOTION) are switched, as <Deactivate> switches them.
TEST(ParseModifyCommand, SwitchesEveryKindTheTypeNames) {
  ModelSpec spec;
  ForceFieldSpec field{};
  field.id = 3;
  spec.fields.push_back(field);
  ForceScalarTwoBodySpec oneBody{};
  oneBody.id = 4;
  spec.scalarForcesOneBody.push_back(oneBody);
  MotionMarkerSpec motion{};
  motion.id = 5;
  spec.markerMotions.push_back(motion);
  for (const char* command : {"DEACTIVATE/FIELD, ID=3", "DEACTIVATE/SFORCE, ID=4", "DEACTIVATE/MOTION, ID=5"}) {
    const ModifyParse parse = parseModifyCommand(command, spec, controlLoc());
    ASSERT_TRUE(parse.change) << command << ": " << parse.refusal;
    parse.change->apply(spec);
  }
  EXPECT_FALSE(spec.fields[0].active);
  EXPECT_FALSE(spec.scalarForcesOneBody[0].active);
  EXPECT_FALSE(spec.markerMotions[0].active);
}

TEST(ParseModifyCommand, RefusesWhatItDoesNotExecute) {
  const ModelSpec spec = deckWithGravity();
  const auto refusal = [&](const char* command) { return parseModifyCommand(command, spec, controlLoc()).refusal; };
  EXPECT_EQ(refusal("MARKER/20, QP=0,0,2"),
            "command MARKER is not available to MODIFY; Lodestone executes ACCGRAV, ACTIVATE and DEACTIVATE");
  EXPECT_EQ(refusal("ACCGRAV/KGRAV=fast"), "KGRAV=\"fast\" is not a number");
  EXPECT_EQ(refusal("ACCGRAV/LGRAV=1"), "ACCGRAV takes IGRAV=, JGRAV= and KGRAV= (numbers), not \"LGRAV=1\"");
  EXPECT_EQ(refusal("DEACTIVATE/SFORCE, ID=8"),
            "the model has no Force_Scalar_TwoBody or Force_Scalar_OneBody with id 8");
  EXPECT_EQ(refusal("DEACTIVATE/SFORCE, ID=7, 8"),
            "DEACTIVATE takes an element type and one id: DEACTIVATE/type, ID=n");
  EXPECT_EQ(refusal("DEACTIVATE/GSE, ID=7").rfind("element type GSE cannot be switched", 0), 0u);
  EXPECT_EQ(refusal(""), "command (none) is not available to MODIFY; Lodestone executes ACCGRAV, ACTIVATE and "
                         "DEACTIVATE");
}

}  // namespace
}  // namespace lodestone
