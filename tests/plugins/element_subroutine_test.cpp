// The subroutines of force elements and variables end to end: SFOSUB, GFOSUB, VFOSUB, VTOSUB and VARSUB in C
// (models/usersub/force_laws.c) and in Python (force_laws.py) each reproduce the expression element they replace bit
// for bit (bodies.csv byte for byte), run.log lists the code run executes, and a library, function or script that
// fails gives its message on the element's line, or ends the run naming the subroutine.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "cli/subroutine_runs.h"

namespace lodestone::cli {
namespace {

using namespace testing;

const std::string kBuiltIn = kUsersubModels + "forces_builtin.xml";

// forces_builtin.xml with element `id`'s line replaced by `line` (or removed when `line` is empty).
std::string swapped(const std::string& id, const std::string& line) { return withElementLine(kBuiltIn, id, line); }

std::string lastLineOf(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  return trimmed.substr(trimmed.rfind('\n') + 1);
}

// Element `id`'s line from the C twin or, with the script's absolute path, from the Python twin.
std::string twinLine(const std::string& id, bool python) {
  std::string line = elementLine(readFile(kUsersubModels + (python ? "forces_python.xml" : "forces_usersub.xml")), id);
  if (python) {
    const std::string script = "script_name=\"force_laws.py\"";
    line.replace(line.find(script), script.size(), "script_name=\"" + kUsersubModels + "force_laws.py\"");
  }
  return line;
}

class ElementSubroutineRun : public SubroutineRun {};

// Each family alone, in C and in Python, gives the expression's bodies.csv byte for byte; and without the element
// the bodies move otherwise, so the comparison can fail.
TEST_F(ElementSubroutineRun, EachSubroutineEqualsItsExpressionElementBitForBit) {
  ASSERT_EQ(run(kBuiltIn, "builtin"), 0) << stderrText();
  const std::string reference = bodies("builtin");
  ASSERT_GT(std::count(reference.begin(), reference.end(), '\n'), 100);
  const std::map<std::string, std::string> families{
      {"300", "SFOSUB"}, {"301", "GFOSUB"}, {"302", "VFOSUB"}, {"303", "VTOSUB"}, {"100", "VARSUB"}};
  for (const auto& [id, function] : families) {
    for (const bool python : {false, true}) {
      const std::string name = function + (python ? "_python" : "_c");
      ASSERT_EQ(runDeck(name, swapped(id, twinLine(id, python))), 0) << name << ": " << stderrText();
      EXPECT_EQ(bodies(name), reference) << name << " differs from the expression element";
      EXPECT_NE(log(name).find(function + " from " + (python ? "script " : "library ")), std::string::npos) << name;
    }
    if (id == "100") continue;  // the variable's reader stays
    ASSERT_EQ(runDeck(function + "_none", swapped(id, "")), 0) << stderrText();
    EXPECT_NE(bodies(function + "_none"), reference) << "element " << id << " does not change the motion";
  }
}

TEST_F(ElementSubroutineRun, EveryLawAsSubroutinesEqualsTheExpressionsInCAndInPython) {
  ASSERT_EQ(run(kBuiltIn, "builtin"), 0) << stderrText();
  ASSERT_EQ(run(kUsersubModels + "forces_usersub.xml", "c"), 0) << stderrText();
  ASSERT_EQ(run(kUsersubModels + "forces_python.xml", "python"), 0) << stderrText();
  EXPECT_EQ(bodies("c"), bodies("builtin"));
  EXPECT_EQ(bodies("python"), bodies("builtin"));
  // run.log says which code runs, from which file.
  const std::string path = kUsersubModels + "forces_usersub.xml";
  const std::string deck = readFile(path);
  const std::string library =
      std::filesystem::canonical(std::string(LODESTONE_BINARY_DIR) + "/lib/usersub_examples.so").string();
  for (const auto& [element, id, role, function] :
       std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
           {"Reference_Variable", "100", "value", "VARSUB"},
           {"Force_Scalar_TwoBody", "300", "magnitude", "SFOSUB"},
           {"Force_Vector_TwoBody", "301", "components", "GFOSUB"},
           {"Force_Vector_OneBody", "302", "components", "VFOSUB"},
           {"Force_Vector_OneBody", "303", "components", "VTOSUB"}}) {
    const std::string expected = " " + element + " id=" + id + " (" + path + ":" +
                                 std::to_string(lineOf(deck, " id=\"" + id + "\"")) + ":5): " + role + " " +
                                 function + " from library " + library;
    EXPECT_NE(log("c").find(expected + "\n"), std::string::npos) << expected;
  }
}

// `check` reads the decks without running their code (a script's top level included) and finds them good.
TEST_F(ElementSubroutineRun, CheckFindsTheDecksGoodWithoutRunningTheirCode) {
  for (const char* deck : {"forces_usersub.xml", "forces_python.xml"}) {
    EXPECT_EQ(runLodestone({"lodestone", "check", kUsersubModels + deck}), 0) << deck << ": " << stderrText();
  }
  const std::string script =
      folder.write("top_level.py", "open('ran.txt', 'w').close()\ndef SFOSUB(id, time, par, npar, dflag, iflag):\n"
                                   "    return 0.0\n");
  const std::string deck = swapped("300", "<Force_Scalar_TwoBody id=\"300\" type=\"FORCE\" i_marker_id=\"11\" "
                                          "j_marker_id=\"21\" script_name=\"" + script + "\" interpreter=\"Python\"/>");
  EXPECT_EQ(runLodestone({"lodestone", "check", folder.write("deck.xml", deck)}), 0) << stderrText();
  EXPECT_FALSE(std::filesystem::exists(folder / "ran.txt")) << "check ran the script";
}

// Failures: the deck's line and the loader's reason (exit 1), or the run ended naming the subroutine (exit 2).
TEST_F(ElementSubroutineRun, FailuresSayWhatAndWhere) {
  const std::string fixtures = std::string(LODESTONE_SOURCE_DIR) + "/tests/fixtures/element_subroutine_failures.py";
  const auto scalar = [](const std::string& attributes) {
    return "<Force_Scalar_TwoBody id=\"300\" type=\"FORCE\" i_marker_id=\"11\" j_marker_id=\"21\" " + attributes +
           "/>";
  };
  const auto where = [&](const std::string& name) {
    return folder / (name + ".xml") + ":" + std::to_string(lineOf(readFile(kBuiltIn), " id=\"300\"")) +
           ":5: Force_Scalar_TwoBody id=300: ";
  };
  EXPECT_EQ(runDeck("missing_library", swapped("300", scalar("usrsub_dll_name=\"no_such_library\""))), 1);
  EXPECT_NE(stderrText().find(where("missing_library") + "usrsub_dll_name=\"no_such_library\": "), std::string::npos)
      << stderrText();
  EXPECT_NE(stderrText().find("not found"), std::string::npos) << stderrText();

  EXPECT_EQ(runDeck("missing_symbol", swapped("300", scalar("usrsub_dll_name=\"usersub_examples\" "
                                                            "usrsub_fnc_name=\"NO_SUCH\""))),
            1);
  EXPECT_NE(stderrText().find(where("missing_symbol") + "usrsub_fnc_name=\"NO_SUCH\": no function NO_SUCH in "),
            std::string::npos)
      << stderrText();

  // A STOP the set-up call asks (two numbers where SFOSUB needs five) stops the build on the element's line; it was
  // forgotten when the simulation started, and the run went on with garbage parameters.
  EXPECT_EQ(runDeck("setup_stop", swapped("300", scalar("usrsub_dll_name=\"usersub_examples\" "
                                                        "usrsub_param_string=\"USER(11, 21)\""))),
            1);
  EXPECT_NE(stderrText().find(where("setup_stop") + "the set-up call (iflag = 1): Force_Scalar_TwoBody id=300 ("),
            std::string::npos)
      << stderrText();
  EXPECT_NE(stderrText().find("asked to stop (c_errmes): SFOSUB needs USER(i, j, k, length, c)"), std::string::npos)
      << stderrText();

  const std::string script = "script_name=\"" + fixtures + "\" interpreter=\"Python\"";
  EXPECT_EQ(runDeck("missing_function", swapped("300", scalar(script))), 1);
  EXPECT_NE(stderrText().find(where("missing_function") + "usrsub_fnc_name=\"SFOSUB\": no function SFOSUB in " +
                              fixtures + " (it defines "),
            std::string::npos)
      << stderrText();

  EXPECT_EQ(runDeck("raises", swapped("300", scalar("script_name=\"" + fixtures + "\" interpreter=\"Python\" "
                                                    "usrsub_fnc_name=\"SFOSUB_RAISES\""))),
            2);
  EXPECT_NE(stderrText().find("Force_Scalar_TwoBody id=300 (" + (folder / "raises.xml") + ":" +
                              std::to_string(lineOf(readFile(kBuiltIn), " id=\"300\"")) + ":5): SFOSUB_RAISES in " +
                              fixtures + " raised ZeroDivisionError: float division by zero (line 7) at t="),
            std::string::npos)
      << stderrText();
  EXPECT_NE(log("raises").find("traceback of SFOSUB_RAISES:"), std::string::npos);

  EXPECT_EQ(runDeck("two", swapped("300", scalar("script_name=\"" + fixtures + "\" interpreter=\"Python\" "
                                                 "usrsub_fnc_name=\"SFOSUB_TWO\""))),
            2);
  EXPECT_NE(stderrText().find("SFOSUB_TWO in " + fixtures + " returned 2 values ([0.0, 1.0]); it must return a "
                              "sequence of 1 number, [value], the force or torque's magnitude (or that number alone)"),
            std::string::npos)
      << stderrText();

  EXPECT_EQ(runDeck("text", swapped("300", scalar("script_name=\"" + fixtures + "\" interpreter=\"Python\" "
                                                  "usrsub_fnc_name=\"SFOSUB_TEXT\""))),
            2);
  EXPECT_NE(stderrText().find("SFOSUB_TEXT in " + fixtures + " returned a str ('force')"), std::string::npos)
      << stderrText();

  const std::string vector = "<Force_Vector_TwoBody id=\"301\" type=\"ForceAndTorque\" i_marker_id=\"12\" "
                             "j_floating_marker_id=\"22\" script_name=\"" + fixtures + "\" interpreter=\"Python\" "
                             "usrsub_fnc_name=\"GFOSUB_THREE\"/>";
  EXPECT_EQ(runDeck("three", swapped("301", vector)), 2);
  EXPECT_NE(stderrText().find("GFOSUB_THREE in " + fixtures + " returned 3 values ([0.0, 0.0, 0.0]); it must return "
                              "a sequence of 6 numbers, [fx, fy, fz, tx, ty, tz] in ref_marker_id's axes"),
            std::string::npos)
      << stderrText();

  // exit() inside a force element's subroutine: status 2, and the last line names the element and the subroutine.
  EXPECT_EQ(runDeck("exit", swapped("300", scalar("usrsub_dll_name=\"usersub_test_fixtures\" usrsub_fnc_name="
                                                  "\"SFOSUB_EXIT\" usrsub_param_string=\"USER(0.05)\""))),
            2);
  const std::string ended = "Force_Scalar_TwoBody id=300: the run ended inside SFOSUB_EXIT in ";
  EXPECT_NE(lastLineOf(log("exit")).find(ended), std::string::npos) << lastLineOf(log("exit"));
  EXPECT_NE(lastLineOf(log("exit")).find("it called exit()"), std::string::npos) << lastLineOf(log("exit"));
  EXPECT_NE(stderrText().find(ended), std::string::npos) << stderrText();

  // Neither a library nor a script; an expression beside a subroutine.
  EXPECT_EQ(runDeck("neither", swapped("300", scalar("usrsub_dll_name=\"NULL\""))), 1);
  // "NULL" names no library (MotionSolve's word for the command line's library, which Lodestone does not take).
  EXPECT_NE(stderrText().find(where("neither") + "usrsub_dll_name is needed: the shared library that holds SFOSUB"),
            std::string::npos)
      << stderrText();
  EXPECT_EQ(runDeck("both", swapped("301", "<Force_Vector_TwoBody id=\"301\" type=\"ForceOnly\" i_marker_id=\"12\" "
                                           "j_floating_marker_id=\"22\" fx_expression=\"1\" "
                                           "usrsub_dll_name=\"usersub_examples\"/>")),
            1);
  EXPECT_NE(stderrText().find("fx_expression cannot go with a user subroutine (VFOSUB gives every component)"),
            std::string::npos)
      << stderrText();
}

}  // namespace
}  // namespace lodestone::cli
