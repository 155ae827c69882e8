// Force_JointFriction in a deck: a correct element on a REVOLUTE, a TRANSLATIONAL and a SPHERICAL joint reads and
// builds without a word; each mistake is named at the element's line and column — mu_dynamic above mu_static, inputs
// that are not four binary digits, a joint type without friction, the LuGre attributes, a missing joint, a flat ball.
#include <gtest/gtest.h>

#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–14: ground, a body on a REVOLUTE (1), one on a TRANSLATIONAL (2), a SPHERICAL (3) and a CYLINDRICAL (4)
// joint; the friction under test is on line 15.
std::string frictionDeck(const std::string& friction) {
  return deck(R"(<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1"/>
<Body_Rigid id="2" cg_id="20" mass="1" inertia_xx="1" inertia_yy="1" inertia_zz="1"/>
<Reference_Marker id="20" body_id="2"/>
<Body_Rigid id="3" cg_id="30" mass="1" inertia_xx="1" inertia_yy="1" inertia_zz="1"/>
<Reference_Marker id="30" body_id="3" pos_x="1"/>
<Reference_Marker id="11" body_id="1" pos_x="1"/>
<Reference_Marker id="12" body_id="1" pos_x="1"/>
<Constraint_Joint id="1" type="REVOLUTE" i_marker_id="20" j_marker_id="10"/>
<Constraint_Joint id="2" type="TRANSLATIONAL" i_marker_id="30" j_marker_id="11"/>
<Constraint_Joint id="3" type="SPHERICAL" i_marker_id="30" j_marker_id="20"/>
<Constraint_Joint id="4" type="CYLINDRICAL" i_marker_id="30" j_marker_id="12"/>
)" + friction);
}

constexpr int kFrictionLine = 15;

TEST(JointFrictionDeck, RevoluteAndTranslationalFrictionReadAndBuild) {
  const Diagnostics revolute = readAndBuildDeck(frictionDeck(
      R"(<Force_JointFriction id="9" joint_id="1" mu_static="0.3" mu_dynamic="0.2" torque_preload="1" )"
      R"(pin_radius="0.02" friction_arm="0.03" bending_reaction_arm="0.05" inputs="1110" effect="All"/>)"));
  EXPECT_EQ(revolute.errorCount(), 0) << revolute.formatAll();
  EXPECT_EQ(revolute.warningCount(), 0) << revolute.formatAll();
  const Diagnostics translational = readAndBuildDeck(frictionDeck(
      R"(<Force_JointFriction id="9" joint_id="2" mu_static="0.3" mu_dynamic="0.3" force_preload="2" )"
      R"(reaction_arm="0.1" initial_overlap="0.2" inactive="Static" effect="Sliding"/>)"));
  EXPECT_EQ(translational.errorCount(), 0) << translational.formatAll();
}

// FRICTION() in a request reads; a force may not read it (the friction is loaded by the joint's reaction, which the
// equations solve for with the forces), and an id the deck lacks is named.
TEST(JointFrictionDeck, FrictionFunctionReadsInRequestsOnly) {
  const std::string friction = R"(<Force_JointFriction id="9" joint_id="1" mu_static="0.3" mu_dynamic="0.2"/>
)";
  const Diagnostics request = readAndBuildDeck(frictionDeck(
      friction + R"x(<Post_Request id="5" type="EXPRESSION" expr1="FRICTION(9, 6)" expr2="FRICTION(9, 18, 20)"/>)x"));
  EXPECT_EQ(request.errorCount(), 0) << request.formatAll();
  const Diagnostics force = readAndBuildDeck(frictionDeck(
      friction + R"x(<Force_Scalar_OneBody id="6" type="TORQUE" marker_id="20" val_expression="-FRICTION(9, 6)"/>)x"));
  EXPECT_TRUE(hasError(force, kFrictionLine + 1, "val_expression=\"-FRICTION(9, 6)\", column 2: FRICTION reads the "
                                                 "friction of Force_JointFriction id=9, which the equations of motion "
                                                 "solve for together with the forces"));
  const Diagnostics missing = readAndBuildDeck(frictionDeck(
      friction + R"x(<Post_Request id="5" type="EXPRESSION" expr1="FRICTION(8, 6)"/>)x"));
  EXPECT_TRUE(hasError(missing, kFrictionLine + 1, "expr1=\"FRICTION(8, 6)\", column 1: FRICTION names "
                                                   "Force_JointFriction id=8, which the deck does not have"));
}

// Adams' name for it is refused with the name MotionSolve's decks use.
TEST(JointFrictionDeck, ForceFrictionNamesForceJointFriction) {
  const Diagnostics d = readAndBuildDeck(frictionDeck(R"(<Force_Friction id="9" joint_id="1"/>)"));
  EXPECT_TRUE(hasError(d, kFrictionLine, "MotionSolve's joint friction is Force_JointFriction"));
}

TEST(JointFrictionDeck, DynamicAboveStaticIsAnError) {
  const Diagnostics d =
      readAndBuildDeck(frictionDeck(R"(<Force_JointFriction id="9" joint_id="1" mu_static="0.2" mu_dynamic="0.3"/>)"));
  EXPECT_TRUE(hasError(d, kFrictionLine, "deck.xml:15:1: Force_JointFriction id=9: mu_dynamic=0.3 exceeds "
                                         "mu_static=0.2; sliding friction is at most the static friction"));
}

TEST(JointFrictionDeck, InputsMustBeFourBinaryDigits) {
  for (const char* inputs : {"12", "1121", "15", "11111"}) {
    const Diagnostics d = readAndBuildDeck(frictionDeck(
        std::string(R"(<Force_JointFriction id="9" joint_id="1" mu_static="0.3" mu_dynamic="0.2" inputs=")") +
        inputs + "\"/>"));
    EXPECT_TRUE(hasError(d, kFrictionLine, std::string("deck.xml:15:1: Force_JointFriction id=9: inputs=\"") +
                                               inputs + "\" is not four binary digits"))
        << inputs;
  }
}

TEST(JointFrictionDeck, SphericalFrictionReadsAndBuilds) {
  const Diagnostics spherical = readAndBuildDeck(frictionDeck(
      R"(<Force_JointFriction id="9" joint_id="3" mu_static="0.3" mu_dynamic="0.2" torque_preload="1" )"
      R"(ball_radius="0.015" inputs="1100"/>)"));
  EXPECT_EQ(spherical.errorCount(), 0) << spherical.formatAll();
  EXPECT_EQ(spherical.warningCount(), 0) << spherical.formatAll();
  const Diagnostics flat = readAndBuildDeck(frictionDeck(
      R"(<Force_JointFriction id="9" joint_id="3" mu_static="0.3" mu_dynamic="0.2" ball_radius="0"/>)"));
  EXPECT_TRUE(hasError(flat, kFrictionLine, "deck.xml:15:1: Force_JointFriction id=9: attribute 'ball_radius'"));
}

TEST(JointFrictionDeck, AJointWithoutFrictionIsNamed) {
  const Diagnostics cylindrical =
      readAndBuildDeck(frictionDeck(R"(<Force_JointFriction id="9" joint_id="4" mu_static="0.3" mu_dynamic="0.2"/>)"));
  EXPECT_TRUE(hasError(cylindrical, kFrictionLine, "deck.xml:15:1: Force_JointFriction id=9: joint_id=4 is a "
                                                   "CYLINDRICAL joint; friction in it is not available yet — "
                                                   "Force_JointFriction acts in REVOLUTE, TRANSLATIONAL and SPHERICAL "
                                                   "joints"));
}

TEST(JointFrictionDeck, LuGreAttributesAreRefusedWithTheReason) {
  const Diagnostics d = readAndBuildDeck(frictionDeck(
      R"(<Force_JointFriction id="9" joint_id="1" mu_static="0.3" mu_dynamic="0.2" bristle_stiffness="100"/>)"));
  EXPECT_TRUE(hasError(d, kFrictionLine, "deck.xml:15:1: Force_JointFriction id=9: attribute 'bristle_stiffness'"));
  EXPECT_TRUE(hasError(d, kFrictionLine, "the LuGre formulation is not available"));
}

TEST(JointFrictionDeck, BadNumbersAndAMissingJointAreNamed) {
  const Diagnostics negative = readAndBuildDeck(frictionDeck(
      R"(<Force_JointFriction id="9" joint_id="1" mu_static="0.3" mu_dynamic="0.2" max_stiction_deform="0"/>)"));
  EXPECT_TRUE(hasError(negative, kFrictionLine, "deck.xml:15:1: Force_JointFriction id=9: attribute "
                                                "'max_stiction_deform'"));
  const Diagnostics missing = readAndBuildDeck(
      frictionDeck(R"(<Force_JointFriction id="9" joint_id="77" mu_static="0.3" mu_dynamic="0.2"/>)"));
  EXPECT_TRUE(hasError(missing, kFrictionLine, "deck.xml:15:1: Force_JointFriction id=9: attribute 'joint_id' refers "
                                               "to Constraint_Joint id=77, which is not defined"));
  const Diagnostics unmeasured =
      readAndBuildDeck(frictionDeck(R"(<Force_JointFriction id="9" joint_id="1" mu_dynamic="0.2"/>)"));
  EXPECT_TRUE(hasError(unmeasured, kFrictionLine, "mu_static"));
}

}  // namespace
}  // namespace lodestone::testing
