// Constraint_Coupler and Constraint_Gear in a deck: each mistake is named at the element's line and column — a
// joint that does not exist, a freedom the joint type lacks, a CYLINDRICAL joint without its freedom, a joint type
// with no coordinate to couple, a zero coefficient, a count of coefficients that does not match the joints; a gear's
// common-velocity marker off the housing, or at a place a joint does not move — and a correct coupler reads and
// builds without a word.
#include <gtest/gtest.h>

#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–16: ground, three bodies on a REVOLUTE (1), a TRANSLATIONAL (2) and a CYLINDRICAL (3) joint, and a
// SPHERICAL one (4); the coupler under test is on line 17.
std::string couplerDeck(const std::string& coupler) {
  return deck(R"(<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1"/>
<Body_Rigid id="2" cg_id="20" mass="1" inertia_xx="1" inertia_yy="1" inertia_zz="1"/>
<Reference_Marker id="20" body_id="2"/>
<Body_Rigid id="3" cg_id="30" mass="1" inertia_xx="1" inertia_yy="1" inertia_zz="1"/>
<Reference_Marker id="30" body_id="3" pos_x="1"/>
<Reference_Marker id="11" body_id="1" pos_x="1"/>
<Body_Rigid id="4" cg_id="40" mass="1" inertia_xx="1" inertia_yy="1" inertia_zz="1"/>
<Reference_Marker id="40" body_id="4" pos_x="2"/>
<Reference_Marker id="12" body_id="1" pos_x="2"/>
<Constraint_Joint id="1" type="REVOLUTE" i_marker_id="20" j_marker_id="10"/>
<Constraint_Joint id="2" type="TRANSLATIONAL" i_marker_id="30" j_marker_id="11"/>
<Constraint_Joint id="3" type="CYLINDRICAL" i_marker_id="40" j_marker_id="12"/>
<Constraint_Joint id="4" type="SPHERICAL" i_marker_id="30" j_marker_id="20"/>
)" + coupler);
}

constexpr int kCouplerLine = 17;

TEST(ConstraintCouplerDeck, ACorrectCouplerReadsAndBuilds) {
  const Diagnostics d = readAndBuildDeck(couplerDeck(
      R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="2" freedom_1="R" freedom_2="T" joint3_id="3" )"
      R"(freedom_3="R" coefficients="1., -2.5, 0.5"/>)"));
  EXPECT_EQ(d.errorCount(), 0) << d.formatAll();
}

TEST(ConstraintCouplerDeck, AMissingJointIsNamed) {
  const Diagnostics d = readAndBuildDeck(
      couplerDeck(R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="99" coefficients="1 -2.5"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "deck.xml:17:1: Constraint_Coupler id=7: attribute 'joint2_id' refers to "
                                        "Constraint_Joint id=99, which is not defined"));
}

TEST(ConstraintCouplerDeck, AFreedomTheJointLacksIsAnError) {
  const Diagnostics d = readAndBuildDeck(couplerDeck(
      R"(<Constraint_Coupler id="7" joint1_id="1" freedom_1="T" joint2_id="2" coefficients="1 -2.5"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "deck.xml:17:1: Constraint_Coupler id=7: joint1_id names Constraint_Joint "
                                        "id=1 (deck.xml:13:1), a REVOLUTE joint, which has no translational degree "
                                        "of freedom; its freedom is \"R\""));
}

TEST(ConstraintCouplerDeck, ACylindricalJointNeedsItsFreedom) {
  const Diagnostics d = readAndBuildDeck(
      couplerDeck(R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="3" coefficients="1 -2.5"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "joint2_id names Constraint_Joint id=3 (deck.xml:15:1), a CYLINDRICAL "
                                        "joint, which both slides and turns; say which coordinate is coupled"));
}

TEST(ConstraintCouplerDeck, TheSameCoordinateTwiceIsAnError) {
  const Diagnostics d = readAndBuildDeck(couplerDeck(
      R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="1" coefficients="1 -2.5"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "deck.xml:17:1: Constraint_Coupler id=7: joint2_id couples the same "
                                        "coordinate of Constraint_Joint id=1 (deck.xml:13:1) twice; name each "
                                        "coordinate once, with the sum of its coefficients"))
      << d.formatAll();
}

TEST(ConstraintCouplerDeck, AJointWithoutACoordinateCannotBeCoupled) {
  const Diagnostics d = readAndBuildDeck(
      couplerDeck(R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="4" coefficients="1 -2.5"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "joint2_id names Constraint_Joint id=4 (deck.xml:16:1), a SPHERICAL joint; "
                                        "a coupler couples the coordinate of a REVOLUTE, TRANSLATIONAL or CYLINDRICAL "
                                        "joint"));
}

TEST(ConstraintCouplerDeck, AZeroCoefficientIsAnError) {
  const Diagnostics d = readAndBuildDeck(
      couplerDeck(R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="2" coefficients="1 0"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "deck.xml:17:1: Constraint_Coupler id=7: coefficient 2 is 0: joint2_id "
                                        "would take no part in the relation"));
}

TEST(ConstraintCouplerDeck, OneCoefficientPerJoint) {
  const Diagnostics d = readAndBuildDeck(couplerDeck(
      R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="2" joint3_id="3" freedom_3="T" coefficients="1 2"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "coefficients has 2 values for 3 joints; give one coefficient per joint"));
}

TEST(ConstraintCouplerDeck, SubroutineCouplersAreRefused) {
  const Diagnostics d = readAndBuildDeck(couplerDeck(
      R"(<Constraint_Coupler id="7" joint1_id="1" joint2_id="2" usrsub_dll_name="cou" coefficients="1 2"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "COUSUB user subroutines are not available"));
}

TEST(ConstraintGearDeck, TheCommonVelocityMarkerIsOnTheHousing) {
  const Diagnostics d = readAndBuildDeck(
      couplerDeck(R"(<Constraint_Gear id="8" joint1_id="1" joint2_id="2" cv_marker_id="20"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "deck.xml:17:1: Constraint_Gear id=8: joint1_id names Constraint_Joint id=1, "
                                        "whose J marker is on ground, but cv_marker_id=20 is on Body_Rigid id=2; the "
                                        "cv marker must be on the housing"));
}

TEST(ConstraintGearDeck, EachJointMustMoveTheContactPoint) {
  // Marker 10 is on joint 1's axis: turning about it does not move the contact point.
  const Diagnostics d = readAndBuildDeck(
      couplerDeck(R"(<Constraint_Gear id="8" joint1_id="1" joint2_id="2" cv_marker_id="10"/>)"));
  EXPECT_TRUE(hasError(d, kCouplerLine, "joint1_id names Constraint_Joint id=1 (REVOLUTE), which does not move the "
                                        "contact point along the z-axis of cv_marker_id=10"));
  EXPECT_EQ(d.errorCount(), 1) << d.formatAll();  // joint 2 slides along z_cv: it does
}

}  // namespace
}  // namespace lodestone::testing
