// Motion_Joint's expression as the deck is checked: positions of other bodies are read (directly or through a
// Reference_Variable), and what cannot make a position equation q − f(q, t) = 0 is refused on the motion's line,
// naming the read: velocities, accelerations, element loads, and any state read in a velocity or acceleration motion.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Line 3: the motion; 4–13: a pendulum (body 2) and a disk (body 3) on revolute joints to ground; 14: `more`.
constexpr int kMotionLine = 3;

std::string drivenDisk(const std::string& motionAttributes, const std::string& more = "") {
  return deck("<Motion_Joint id=\"5\" joint_id=\"2\" motion_type=\"R\" " + motionAttributes + "/>\n" +
              R"(<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1"/>
<Reference_Marker id="12" body_id="1" pos_x="2"/>
<Body_Rigid id="2" cg_id="20" mass="2" inertia_xx="0.01" inertia_yy="0.1" inertia_zz="0.1"/>
<Reference_Marker id="20" body_id="2" pos_x="0.5"/>
<Reference_Marker id="21" body_id="2"/>
<Constraint_Joint id="1" type="REVOLUTE" i_marker_id="21" j_marker_id="10"/>
<Body_Rigid id="3" cg_id="30" mass="1" inertia_xx="0.2" inertia_yy="0.2" inertia_zz="0.3"/>
<Reference_Marker id="30" body_id="3" pos_x="2"/>
<Constraint_Joint id="2" type="REVOLUTE" i_marker_id="30" j_marker_id="12"/>
)" + more);
}

TEST(MotionJointDeck, PositionsOfOtherBodiesAreRead) {
  for (const std::string attributes :
       {"expr=\"0.5*AZ(21,10)\"", "expr=\"DX(20,10)*SIN(TIME) + PSI(21)\"", "expr=\"VARVAL(7)\"",
        "expr=\"VX(12)\"" /* a ground marker's velocity: zero, a motion of time */}) {
    const Diagnostics diagnostics =
        readAndBuildDeck(drivenDisk(attributes, "<Reference_Variable id=\"7\" type=\"EXPRESSION\" expr=\"DY(20)\"/>"));
    EXPECT_EQ(diagnostics.errorCount(), 0) << attributes << "\n" << diagnostics.formatAll();
  }
}

TEST(MotionJointDeck, VelocitiesAreRefused) {
  EXPECT_TRUE(hasError(readAndBuildDeck(drivenDisk("expr=\"0.5*WZ(21)\"")), kMotionLine,
                       "Motion_Joint id=5: expr=\"0.5*WZ(21)\" reads velocities; a motion may read the markers' "
                       "positions and angles (DX…, AX…) besides TIME"));
  EXPECT_TRUE(hasError(readAndBuildDeck(drivenDisk("expr=\"VARVAL(7)\"", "<Reference_Variable id=\"7\" "
                                                                          "type=\"EXPRESSION\" expr=\"vx (20)\"/>")),
                       kMotionLine, "Motion_Joint id=5: expr=\"VARVAL(7)\" reads velocities"));
  // The same variable read through a plant port (PINVAL) is refused the same way.
  EXPECT_TRUE(hasError(readAndBuildDeck(drivenDisk("expr=\"PINVAL(3, 1)\"",
                                                   "<Reference_Variable id=\"7\" expr=\"vx (20)\"/>\n"
                                                   "<Control_PlantInput id=\"3\" num_element=\"1\" "
                                                   "variable_id_list=\"7\"/>")),
                       kMotionLine, "Motion_Joint id=5: expr=\"PINVAL(3, 1)\" reads velocities"));
}

TEST(MotionJointDeck, AccelerationsAndLoadsAreRefused) {
  EXPECT_TRUE(hasError(readAndBuildDeck(drivenDisk("expr=\"ACCX(20)\"")), kMotionLine,
                       "Motion_Joint id=5: expr=\"ACCX(20)\" reads accelerations; a motion cannot"));
  const std::string readsJoint = "<Reference_Variable id=\"7\" type=\"EXPRESSION\" expr=\"JOINT(1,0,2,0)\"/>";
  EXPECT_TRUE(hasError(readAndBuildDeck(drivenDisk("expr=\"VARVAL(7)\"", readsJoint)),
                       kMotionLine,
                       "Motion_Joint id=5: expr=\"VARVAL(7)\" calls JOINT through Reference_Variable id=7; a motion's "
                       "reaction is solved for with the other joints'"));
}

TEST(MotionJointDeck, VelocityAndAccelerationMotionsReadTimeOnly) {
  for (const char* valueType : {"V", "A"}) {
    EXPECT_TRUE(hasError(readAndBuildDeck(drivenDisk(std::string("val_type=\"") + valueType +
                                                     "\" expr=\"0.5*AZ(21,10)\"")),
                         kMotionLine,
                         std::string("Motion_Joint id=5: expr=\"0.5*AZ(21,10)\" reads the position of Body_Rigid id=2; "
                                     "with val_type=\"") + valueType +
                             "\" a motion may read TIME only (its target is integrated over time): give the motion "
                             "as a displacement, val_type=\"D\""))
        << valueType;
  }
}

// Motion_Marker: markers on one body are refused; X, Y, Z and the rotations B1, B2, B3 build.
TEST(MotionMarkerDeck, MarkersOnOneBodyAreRefused) {
  const auto markerMotion = [](const std::string& attributes) {
    return deck("<Motion_Marker id=\"8\" " + attributes + "/>\n" + groundAndBody() +
                "\n<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"1\"/>"
                "\n<Reference_Marker id=\"10\" body_id=\"1\"/>");
  };
  for (const char* direction : {"X", "Y", "Z", "B1", "B2", "B3"}) {
    const std::string attributes =
        std::string("i_marker_id=\"20\" j_marker_id=\"10\" direction=\"") + direction + "\" expr=\"TIME\"";
    const Diagnostics good = readAndBuildDeck(markerMotion(attributes));
    EXPECT_EQ(good.errorCount(), 0) << good.formatAll();
  }
  EXPECT_TRUE(hasError(readAndBuildDeck(markerMotion("i_marker_id=\"20\" j_marker_id=\"21\" direction=\"X\" "
                                                     "expr=\"TIME\"")),
                       kMotionLine,
                       "Motion_Marker id=8: i_marker_id=20 and j_marker_id=21 are both on Body_Rigid id=2; a motion "
                       "moves one body against another"));
  EXPECT_TRUE(hasError(readAndBuildDeck(markerMotion("i_marker_id=\"20\" j_marker_id=\"10\" direction=\"X\"")),
                       kMotionLine, "Motion_Marker id=8: type=\"EXPRESSION\" needs expr"));
}

// A joint's markers on one body are refused as a Motion_Marker's are (connectJointMarkers serves both).
TEST(ConstraintJointDeck, MarkersOnOneBodyAreRefused) {
  const std::string joint = "<Constraint_Joint id=\"4\" type=\"REVOLUTE\" i_marker_id=\"20\" j_marker_id=\"21\"/>\n";
  EXPECT_TRUE(hasError(readAndBuildDeck(deck(joint + groundAndBody() +
                                             "\n<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"1\"/>")),
                       kMotionLine,
                       "Constraint_Joint id=4: i_marker_id=20 and j_marker_id=21 are both on Body_Rigid id=2; a joint "
                       "connects two different bodies"));
}

}  // namespace
}  // namespace lodestone::testing
