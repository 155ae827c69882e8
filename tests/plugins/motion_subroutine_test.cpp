// MOTSUB end to end: a crank driven by Motion_Joint type="USERSUB" calling models/usersub/motion_laws.c's MOTSUB
// (the C library) or motion_laws.py's (Python) gives the bodies.csv of the same motion written as an expression, byte
// for byte; and a missing library, function or script, a set-up STOP and a Python exception fail as the other
// families' do: on the motion's line (exit 1) or ending the run naming the subroutine (exit 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cli/subroutine_runs.h"

namespace lodestone::cli {
namespace {

using namespace testing;

// A crank: a 2 kg bar with its CG 0.5 m from a revolute joint about ground z, gravity −y, driven by `motion` (on
// line 11) for 2 s.
std::string crankDeck(const std::string& motion) {
  return R"(<?xml version="1.0"?>
<MultiBodySystem><Model>
<Param_Transient integr_tol="1e-8"/>
<Force_Gravity grav_y="-9.81"/>
<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1"/>
<Body_Rigid id="2" cg_id="20" mass="2" inertia_xx="0.01" inertia_yy="0.1" inertia_zz="0.1"/>
<Reference_Marker id="20" body_id="2" pos_x="0.5"/>
<Reference_Marker id="21" body_id="2"/>
<Constraint_Joint id="1" type="REVOLUTE" i_marker_id="21" j_marker_id="10"/>
)" + motion + R"(
</Model><Command><Simulate end_time="2" print_interval="0.02"/></Command></MultiBodySystem>
)";
}
constexpr int kMotionLine = 11;

std::string motion(const std::string& attributes) {
  return "<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" " + attributes + "/>";
}

class MotionSubroutineRun : public SubroutineRun {
 protected:
  std::string where(const std::string& name) {
    return folder / (name + ".xml") + ":" + std::to_string(kMotionLine) + ":1: Motion_Joint id=5: ";
  }
};

// θ(t) = 0.8 sin 3t + 2t as the expression, as the C MOTSUB and as the Python one with USER(0.8, 3, 2): bodies.csv
// byte for byte (101 rows, the crank turning through more than half a turn); a motion of another amplitude differs,
// so the comparison can fail.
TEST_F(MotionSubroutineRun, CAndPythonMotsubEqualTheExpressionBitForBit) {
  ASSERT_EQ(runDeck("expression", crankDeck(motion("expr=\"0.8*SIN(3*TIME)+2*TIME\""))), 0) << stderrText();
  const std::string reference = bodies("expression");
  ASSERT_EQ(std::count(reference.begin(), reference.end(), '\n'), 102);
  const std::string parameters = "type=\"USERSUB\" usrsub_param_string=\"USER(0.8, 3, 2)\" ";
  ASSERT_EQ(runDeck("c", crankDeck(motion(parameters + "usrsub_dll_name=\"usersub_examples\""))), 0) << stderrText();
  EXPECT_EQ(bodies("c"), reference);
  EXPECT_NE(log("c").find("MOTSUB from library "), std::string::npos) << log("c");
  ASSERT_EQ(runDeck("python", crankDeck(motion(parameters + "script_name=\"" + kUsersubModels +
                                               "motion_laws.py\" interpreter=\"Python\""))),
            0)
      << stderrText();
  EXPECT_EQ(bodies("python"), reference);
  EXPECT_NE(log("python").find("MOTSUB from script "), std::string::npos) << log("python");
  ASSERT_EQ(runDeck("other", crankDeck(motion(
                                 "type=\"USERSUB\" usrsub_param_string=\"USER(0.7, 3, 2)\" "
                                 "usrsub_dll_name=\"usersub_examples\""))),
            0);
  EXPECT_NE(bodies("other"), reference);
}

// Failures: the motion's line and the loader's reason (exit 1), or the run ended naming the subroutine (exit 2).
TEST_F(MotionSubroutineRun, FailuresSayWhatAndWhere) {
  const std::string parameters = "type=\"USERSUB\" usrsub_param_string=\"USER(0.8, 3, 2)\" ";
  EXPECT_EQ(runDeck("missing_library", crankDeck(motion(parameters + "usrsub_dll_name=\"no_such_library\""))), 1);
  EXPECT_NE(stderrText().find(where("missing_library") + "usrsub_dll_name=\"no_such_library\": "), std::string::npos)
      << stderrText();
  EXPECT_NE(stderrText().find("not found"), std::string::npos) << stderrText();

  EXPECT_EQ(runDeck("missing_symbol", crankDeck(motion(parameters + "usrsub_dll_name=\"usersub_examples\" "
                                                                    "usrsub_fnc_name=\"NO_SUCH\""))),
            1);
  EXPECT_NE(stderrText().find(where("missing_symbol") + "usrsub_fnc_name=\"NO_SUCH\": no function NO_SUCH in "),
            std::string::npos)
      << stderrText();

  // Two numbers where MOTSUB needs three: its set-up call asks to stop, on the motion's line.
  EXPECT_EQ(runDeck("setup_stop", crankDeck(motion("type=\"USERSUB\" usrsub_param_string=\"USER(0.8, 3)\" "
                                                   "usrsub_dll_name=\"usersub_examples\""))),
            1);
  EXPECT_NE(stderrText().find(where("setup_stop") + "the set-up call (iflag = 1): Motion_Joint id=5 ("),
            std::string::npos)
      << stderrText();
  EXPECT_NE(stderrText().find("asked to stop (c_errmes): MOTSUB needs USER(a, w, b)"), std::string::npos)
      << stderrText();

  const std::string fixtures = std::string(LODESTONE_SOURCE_DIR) + "/tests/fixtures/element_subroutine_failures.py";
  const std::string script = "script_name=\"" + fixtures + "\" interpreter=\"Python\"";
  EXPECT_EQ(runDeck("missing_function", crankDeck(motion(parameters + script))), 1);
  EXPECT_NE(stderrText().find(where("missing_function") + "usrsub_fnc_name=\"MOTSUB\": no function MOTSUB in " +
                              fixtures + " (it defines "),
            std::string::npos)
      << stderrText();

  EXPECT_EQ(runDeck("raises", crankDeck(motion(parameters + script + " usrsub_fnc_name=\"MOTSUB_RAISES\""))), 2);
  EXPECT_NE(stderrText().find("Motion_Joint id=5 (" + (folder / "raises.xml") + ":" + std::to_string(kMotionLine) +
                              ":1): MOTSUB_RAISES in " + fixtures +
                              " raised ZeroDivisionError: float division by zero (line "),
            std::string::npos)
      << stderrText();
  EXPECT_NE(log("raises").find("traceback of MOTSUB_RAISES:"), std::string::npos);

  // USERSUB without a library or a script is a deck error, as for the other families.
  EXPECT_EQ(runDeck("nothing", crankDeck(motion("type=\"USERSUB\""))), 1);
  EXPECT_NE(stderrText().find(where("nothing") + "usrsub_dll_name is needed: the shared library that holds MOTSUB"),
            std::string::npos)
      << stderrText();
}

// A pendulum (body 2: CG marker 20, 0.5 m from its revolute joint about ground z, released 45° below the horizontal)
// and a disk (body 3) on a revolute joint at (2, 0, 0) whose angle follows the pendulum: `motion` on the disk's joint.
std::string followerDeck(const std::string& motion) {
  return R"(<?xml version="1.0"?>
<MultiBodySystem><Model>
<Param_Transient integr_tol="1e-8"/>
<Force_Gravity grav_y="-9.81"/>
<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1"/>
<Reference_Marker id="12" body_id="1" pos_x="2"/>
<Body_Rigid id="2" cg_id="20" mass="2" inertia_xx="0.01" inertia_yy="0.1" inertia_zz="0.1"/>
<Reference_Marker id="20" body_id="2" pos_x="0.35355339059327373" pos_y="-0.35355339059327373"/>
<Reference_Marker id="21" body_id="2"/>
<Body_Rigid id="3" cg_id="30" mass="1" inertia_xx="0.15" inertia_yy="0.15" inertia_zz="0.3"/>
<Reference_Marker id="30" body_id="3" pos_x="2"/>
<Constraint_Joint id="1" type="REVOLUTE" i_marker_id="21" j_marker_id="10"/>
<Constraint_Joint id="2" type="REVOLUTE" i_marker_id="30" j_marker_id="12"/>
<Motion_Joint id="5" joint_id="2" motion_type="R" )" + motion + R"(/>
</Model><Command><Simulate end_time="2" print_interval="0.02"/></Command></MultiBodySystem>
)";
}

// A MOTSUB that reads a moving body's marker (c_sysfnc DX in its set-up call) drives the disk as the expression
// 2*DX(20,10) + 0.1*SIN(2*TIME) does, the pendulum's swing coupled through the motion: bodies.csv byte for byte, in C
// and in Python. One that reads velocities is refused at the motion's line; one whose set-up call reads nothing
// (so that its motion was not differentiated over the pendulum) stops the run at its first read.
TEST_F(MotionSubroutineRun, AMotsubMayFollowAMovingBodyAsAnExpressionDoes) {
  ASSERT_EQ(runDeck("expression", followerDeck("expr=\"2*DX(20,10)+0.1*SIN(2*TIME)\"")), 0) << stderrText();
  const std::string reference = bodies("expression");
  const std::string follower = "type=\"USERSUB\" usrsub_param_string=\"USER(20, 10, 2, 0.1, 2)\" ";
  for (const bool python : {false, true}) {
    const std::string name = python ? "python" : "c";
    const std::string deck = followerDeck(fixtureSubroutine(follower + "usrsub_fnc_name=\"MOTSUB_FOLLOWER\"", python,
                                                            "motion_fixtures.py"));
    ASSERT_EQ(runDeck(name, deck), 0) << name << ": " << stderrText();
    EXPECT_EQ(bodies(name), reference) << name;
  }
  // The disk does follow the pendulum: a motion of time alone moves it otherwise.
  ASSERT_EQ(runDeck("time_only", followerDeck("expr=\"0.1*SIN(2*TIME)\"")), 0) << stderrText();
  EXPECT_NE(bodies("time_only"), reference);

  const std::string velocity = followerDeck(fixtureSubroutine(follower + "usrsub_fnc_name=\"MOTSUB_VELOCITY\"", false,
                                                              "motion_fixtures.py"));
  EXPECT_EQ(runDeck("velocity", velocity), 1);
  EXPECT_NE(stderrText().find("velocity.xml:" + std::to_string(lineOf(velocity, "<Motion_Joint")) +
                              ":1: Motion_Joint id=5: MOTSUB_VELOCITY in "),
            std::string::npos) << stderrText();
  EXPECT_NE(stderrText().find("in its set-up call reads velocities; a motion may read the markers' positions"),
            std::string::npos) << stderrText();

  const std::string undeclared = followerDeck(fixtureSubroutine(follower + "usrsub_fnc_name=\"MOTSUB_UNDECLARED\"",
                                                                false, "motion_fixtures.py"));
  EXPECT_EQ(runDeck("undeclared", undeclared), 2);
  EXPECT_NE(log("undeclared").find("MOTSUB_UNDECLARED in "), std::string::npos) << log("undeclared");
  EXPECT_NE(log("undeclared").find(" read Reference_Marker id=20 at t=0, which its set-up call (iflag = 1) did not "
                                   "read"),
            std::string::npos) << log("undeclared");
}

}  // namespace
}  // namespace lodestone::cli
