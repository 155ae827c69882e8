// UserProgramControl end to end: a CONSUB in C and one in Python drive MotionSolve's documented "Earth then Mars"
// run (ANALYS, MODIFY ACCGRAV, ANALYS) and give the bodies.csv a deck's own <Command> section gives, byte for byte;
// and each way CONSUB can be wrong — missing library or function, a Python exception, an analysis going back in
// time, an unsupported MODIFY command, ANALYS called from another subroutine — with its message and exit code.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "subroutine_runs.h"

namespace lodestone::cli::testing {
namespace {

using lodestone::testing::ResultsTable;

const std::string kFixtures = std::string(LODESTONE_SOURCE_DIR) + "/tests/fixtures/";
constexpr double kEarth = -9.80665, kMars = -3.72742;

// A 2 kg body thrown up at 5 m/s from z = 1 m under Earth's gravity; `commands` is the <Command> section's text.
std::string fallDeck(const std::string& commands, const std::string& model = "") {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<MultiBodySystem>
  <Model>
    <Param_Unit force_unit="NEWTON" mass_unit="KILOGRAM" length_unit="METER" time_unit="SECOND"/>
    <Param_Transient integr_tol="1e-8"/>
    <Force_Gravity grav_x="0" grav_y="0" grav_z="-9.80665"/>
    <Body_Rigid id="1" isground="TRUE"/>
    <Reference_Marker id="10" body_id="1"/>
    <Reference_Marker id="20" body_id="2" pos_z="1"/>
    <Body_Rigid id="2" mass="2" inertia_xx="0.1" inertia_yy="0.2" inertia_zz="0.3" cg_id="20" v_ic_z="5"/>
)" + model + R"(  </Model>
  <Command>
)" + commands +
         R"(  </Command>
</MultiBodySystem>
)";
}

// The same run written with the deck's own commands: Earth to t = 1, gravity changed, Mars to t = 2.
const std::string kDeckCommands = R"(    <Simulate analysis_type="Transient" end_time="1" print_interval="0.01"/>
    <Force_Gravity grav_z="-3.72742"/>
    <Simulate analysis_type="Transient" end_time="2" print_interval="0.01"/>
)";

std::string cControl(const std::string& function, const std::string& parameters = "USER(1, 2)") {
  return "    <UserProgramControl usrsub_param_string=\"" + parameters +
         "\" usrsub_dll_name=\"consub_fixtures\" usrsub_fnc_name=\"" + function + "\" print_interval=\"0.01\"/>\n";
}

std::string pythonControl(const std::string& function, const std::string& parameters = "USER(1, 2)",
                          const std::string& script = kFixtures + "consub_earth_mars.py") {
  return "    <UserProgramControl usrsub_param_string=\"" + parameters + "\" script_name=\"" + script +
         "\" interpreter=\"PYTHON\" usrsub_fnc_name=\"" + function + "\" print_interval=\"0.01\"/>\n";
}

// "deck.xml:L:5: UserProgramControl: ", how a deck error on the command's line begins.
std::string controlError(const std::string& path, const std::string& deck) {
  return path + ":" + std::to_string(lodestone::testing::lineOf(deck, "<UserProgramControl")) +
         ":5: UserProgramControl: ";
}
std::string controlName(const std::string& path, const std::string& deck) {
  return "UserProgramControl (" + path + ":" + std::to_string(lodestone::testing::lineOf(deck, "<UserProgramControl")) +
         ":5)";
}

class ConsubRun : public SubroutineRun {
 protected:
  std::vector<std::string> log(const std::string& results) {
    return lodestone::testing::readLines(folder.path() / results / "run.log");
  }
  static long countLines(const std::vector<std::string>& lines, const std::string& text) {
    return std::count_if(lines.begin(), lines.end(),
                         [&](const std::string& line) { return line.find(text) != std::string::npos; });
  }
};

// The docs' CONSUB in C and in Python: the same outputs as the deck's commands, to the byte, and the closed form of
// the throw (z = 1 + 5t + g t²/2 on Earth, then from z(1), vz(1) under Mars's g) to 1e-9.
// Fails when: ANALYS runs anything else than a Simulate does, MODIFY ACCGRAV changes gravity otherwise than the
// command-form Force_Gravity, or the analyses' times or output step differ.
// Standard error without the list of suppressions LeakSanitizer prints as a sanitizer build's process exits
// (tests/lsan_python.supp: the Python interpreter's own allocations); empty in a normal build.
std::string withoutLeakSanitizerSummary(const std::string& text) {
  const size_t summary = text.find("Suppressions used:");
  if (summary == std::string::npos) return text;
  const size_t rule = text.rfind("-----", summary);
  return text.substr(0, rule == std::string::npos ? summary : text.rfind('\n', rule) + 1);
}

TEST_F(ConsubRun, CAndPythonConsubRunEarthThenMarsAsTheDecksCommandsDo) {
  const std::string commandsDeck = folder.write("commands.xml", fallDeck(kDeckCommands));
  const std::string cDeck = folder.write("c_consub.xml", fallDeck(cControl("CONSUB")));
  const std::string pythonDeck = folder.write("python_consub.xml", fallDeck(pythonControl("CONSUB")));
  ASSERT_EQ(run(commandsDeck, "commands"), 0) << stderrText();
  ASSERT_EQ(run(cDeck, "c"), 0) << stderrText();
  EXPECT_EQ(stderrText(), "");
  ASSERT_EQ(run(pythonDeck, "python"), 0) << stderrText();
  EXPECT_EQ(withoutLeakSanitizerSummary(stderrText()), "");

  const std::string expected = readFile(folder / "commands/bodies.csv");
  EXPECT_EQ(readFile(folder / "c/bodies.csv"), expected);
  EXPECT_EQ(readFile(folder / "python/bodies.csv"), expected);
  EXPECT_EQ(readFile(folder / "c/energy.csv"), readFile(folder / "commands/energy.csv"));

  const ResultsTable bodies(folder / "c/bodies.csv");
  ASSERT_EQ(bodies.rowCount(), 201u);  // 0, 0.01, …, 2: t = 1 once
  const double z1 = 1 + 5 + kEarth / 2, v1 = 5 + kEarth;
  double largestError = 0;
  for (size_t row = 0; row < bodies.rowCount(); ++row) {
    const double t = bodies.at(row, "time");
    EXPECT_NEAR(t, 0.01 * static_cast<double>(row), 1e-12);
    const double s = t - 1;
    const double z = t <= 1 ? 1 + 5 * t + kEarth * t * t / 2 : z1 + v1 * s + kMars * s * s / 2;
    const double vz = t <= 1 ? 5 + kEarth * t : v1 + kMars * s;
    largestError = std::max({largestError, std::fabs(bodies.at(row, "z") - z), std::fabs(bodies.at(row, "vz") - vz)});
    EXPECT_NEAR(bodies.at(row, "az"), t < 1 ? kEarth : t > 1 ? kMars : bodies.at(row, "az"), 1e-9) << "t=" << t;
  }
  EXPECT_LT(largestError, 1e-9);  // measured 2.2e-14: BDF integrates a quadratic path exactly

  for (const std::string results : {"c", "python"}) {
    const std::vector<std::string> lines = log(results);
    const std::string utility = results == "c" ? "c_" : "py_";
    EXPECT_EQ(countLines(lines, "TRANSIENT SIMULATION COMPLETED"), 2) << results;
    EXPECT_EQ(countLines(lines, utility + "analys(\"TRANSIENT\", \"Simulation on Earth\", 0, 1): Simulation on Earth"),
              1) << results;
    EXPECT_EQ(countLines(lines, utility + "modify(\"ACCGRAV/IGRAV=0, JGRAV=0, KGRAV=-3.72742\"): gravity IGRAV=0, "
                                          "JGRAV=0, KGRAV=-3.72742"), 1) << results;
    EXPECT_EQ(countLines(lines, utility + "datout(): results written up to t="), 2) << results;
    EXPECT_EQ(countLines(lines, "program control CONSUB from"), 1) << results;
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back(), "Simulation completed.");
  }
  EXPECT_EQ(countLines(log("commands"), "TRANSIENT SIMULATION COMPLETED"), 2);

  // c_sysfnc from CONSUB reads the state the Earth analysis reached: DZ(20) = z(1).
  const std::vector<std::string> lines = log("c");
  const auto said = std::find_if(lines.begin(), lines.end(),
                                 [](const std::string& line) { return line.find("DZ(20) = ") != std::string::npos; });
  ASSERT_NE(said, lines.end());
  EXPECT_NE(said->find(", errflg 0"), std::string::npos) << *said;
  EXPECT_NEAR(std::stod(said->substr(said->find("DZ(20) = ") + 9)), z1, 1e-6) << *said;
}

// UserProgramControl is a command like the others: those after it run once CONSUB returns, from where it ended.
TEST_F(ConsubRun, CommandsAfterUserProgramControlContinueFromWhereConsubEnded) {
  const std::string deck = folder.write(
      "then_simulate.xml",
      fallDeck(cControl("CONSUB", "USER(1, 1.5)") +
               "    <Simulate analysis_type=\"Transient\" end_time=\"2\" print_interval=\"0.01\"/>\n    <Stop/>\n"));
  ASSERT_EQ(run(deck, "out"), 0) << stderrText();
  const ResultsTable bodies(folder / "out/bodies.csv");
  ASSERT_EQ(bodies.rowCount(), 201u);
  EXPECT_EQ(bodies.at(200, "time"), 2.0);
  const double s = 1, z = 1 + 5 + kEarth / 2 + (5 + kEarth) * s + kMars * s * s / 2;
  EXPECT_NEAR(bodies.at(200, "z"), z, 1e-9);  // as the Earth-then-Mars run: BDF is exact on it
  EXPECT_EQ(countLines(log("out"), "TRANSIENT SIMULATION COMPLETED"), 3);
  EXPECT_EQ(countLines(log("out"), "Execution terminated by STOP command."), 1);
}

// ANALYS("STATICS") and MODIFY("DEACTIVATE/SPDP, ID=400") do what <Simulate analysis_type="Static"> and
// <Deactivate element_type="SPDP"> do: the body hangs at rest on its spring at z = L0 + m g / k = 1.5 − 19.6133/100,
// then falls freely from there. Fails when: STATICS runs another analysis, or DEACTIVATE switches something else.
TEST_F(ConsubRun, StaticsAndDeactivateFromConsubMatchTheDecksCommands) {
  const std::string spring = "    <Force_SpringDamper id=\"400\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" "
                             "j_marker_id=\"10\" stiffness=\"100\" length=\"1.5\"/>\n";
  const std::string commands = folder.write(
      "commands.xml", fallDeck("    <Simulate analysis_type=\"Static\" end_time=\"0\"/>\n"
                               "    <Deactivate element_type=\"SPDP\" element_id=\"400\"/>\n"
                               "    <Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.01\"/>\n",
                               spring));
  const std::string consub =
      folder.write("consub.xml", fallDeck(cControl("CONSUB_STATICS_THEN_RELEASE", "USER(400, 1)"), spring));
  ASSERT_EQ(run(commands, "commands"), 0) << stderrText();
  ASSERT_EQ(run(consub, "consub"), 0) << stderrText();
  EXPECT_EQ(stderrText(), "");
  EXPECT_EQ(readFile(folder / "consub/bodies.csv"), readFile(folder / "commands/bodies.csv"));
  const ResultsTable bodies(folder / "consub/bodies.csv");
  ASSERT_EQ(bodies.rowCount(), 101u);
  const double rest = 1.5 + 2 * kEarth / 100;  // measured within 3e-13 of it
  EXPECT_NEAR(bodies.at(0, "z"), rest, 1e-9);
  EXPECT_NEAR(bodies.at(0, "vz"), 0, 1e-12);
  EXPECT_NEAR(bodies.at(100, "z"), rest + kEarth / 2, 1e-9);
  EXPECT_EQ(countLines(log("consub"), "STATIC ANALYSIS COMPLETED"), 1);
  EXPECT_EQ(countLines(log("consub"), "c_modify(\"DEACTIVATE/SPDP, ID=400\"): deactivates SPDP id=400"), 1);
}

TEST_F(ConsubRun, MissingLibraryOrFunctionStopsTheRunBeforeAnythingRuns) {
  const std::string noLibraryText = fallDeck(
      "    <UserProgramControl usrsub_param_string=\"USER(1, 2)\" usrsub_dll_name=\"no_such_consub\"/>\n");
  const std::string noLibrary = folder.write("no_library.xml", noLibraryText);
  EXPECT_EQ(run(noLibrary, "no_library"), 1);
  EXPECT_NE(stderrText().find(controlError(noLibrary, noLibraryText) + "usrsub_dll_name=\"no_such_consub\": "),
            std::string::npos) << stderrText();
  EXPECT_NE(stderrText().find("bad deck, not simulated"), std::string::npos) << stderrText();
  EXPECT_FALSE(std::filesystem::exists(folder / "no_library/bodies.csv"));
  // `check` says it as a warning: the deck is good, the library is missing on this machine (docs/subroutines.md,
  // "Libraries that are not installed").
  EXPECT_EQ(runLodestone({"lodestone", "check", noLibrary}), 0);
  EXPECT_NE(stderrText().find("warning: UserProgramControl: usrsub_dll_name=\"no_such_consub\": library "
                              "\"no_such_consub\" not found"),
            std::string::npos) << stderrText();
  EXPECT_NE(stderrText().find("needed by 1 element: UserProgramControl (line 13) (an error for `run`)"),
            std::string::npos) << stderrText();

  const std::string noFunctionText = fallDeck(cControl("NO_SUCH_CONSUB"));
  const std::string noFunction = folder.write("no_function.xml", noFunctionText);
  EXPECT_EQ(run(noFunction, "no_function"), 1);
  EXPECT_NE(stderrText().find(controlError(noFunction, noFunctionText) +
                              "usrsub_fnc_name=\"NO_SUCH_CONSUB\": no function NO_SUCH_CONSUB in "),
            std::string::npos) << stderrText();

  // A deck whose only command is UserProgramControl is a complete deck.
  const std::string good = folder.write("good.xml", fallDeck(cControl("CONSUB")));
  EXPECT_EQ(runLodestone({"lodestone", "check", good}), 0) << stderrText();
}

// An exception in a Python CONSUB ends the run as one in any subroutine does: exit 2, the outputs of the analyses
// that ran kept, the traceback in run.log.
TEST_F(ConsubRun, PythonExceptionFailsTheRunAndKeepsWhatRan) {
  const std::string text = fallDeck(pythonControl("CONSUB_RAISES", "USER(1)"));
  const std::string deck = folder.write("raises.xml", text);
  EXPECT_EQ(run(deck, "out"), 2);
  const std::string script = kFixtures + "consub_earth_mars.py";
  EXPECT_NE(stderrText().find(controlName(deck, text) + ": CONSUB_RAISES in " + script +
                              " raised ZeroDivisionError: division by zero (line 26) (traceback in run.log); results "
                              "up to the failure are kept"),
            std::string::npos) << stderrText();
  EXPECT_EQ(ResultsTable(folder / "out/bodies.csv").rowCount(), 101u);
  const std::vector<std::string> lines = log("out");
  EXPECT_EQ(countLines(lines, "traceback of CONSUB_RAISES:"), 1);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("Simulation FAILED at t=1.000000E+00: " + controlName(deck, text), 0), 0u)
      << lines.back();
}

// ANALYS going back in time is the deck error a Simulate going back in time is (exit 1), said on the command's line.
TEST_F(ConsubRun, AnalysisGoingBackInTimeIsTheDeckErrorASimulateGives) {
  const std::string text = fallDeck(cControl("CONSUB_BACKWARDS", "USER(1)"));
  const std::string deck = folder.write("backwards.xml", text);
  EXPECT_EQ(run(deck, "out"), 1);
  EXPECT_NE(stderrText().find(controlError(deck, text) + "start_time 0.5 differs from time 1"), std::string::npos)
      << stderrText();
  EXPECT_NE(stderrText().find(": this ANALYS cannot be run"), std::string::npos) << stderrText();
  EXPECT_EQ(ResultsTable(folder / "out/bodies.csv").rowCount(), 101u);
}

// MODIFY refuses what it does not execute: CONSUB gets a nonzero status, run.log and a warning name the command.
TEST_F(ConsubRun, UnsupportedModifyIsRefusedWithAStatusAndALogLine) {
  const std::string text = fallDeck(cControl("CONSUB_UNSUPPORTED_MODIFY", "USER(0.5)"));
  const std::string deck = folder.write("unsupported.xml", text);
  EXPECT_EQ(run(deck, "out"), 0) << stderrText();
  const std::string refusal = "c_modify(\"MARKER/20, QP=0,0,2\") refused: command MARKER is not available to MODIFY; "
                              "Lodestone executes ACCGRAV, ACTIVATE and DEACTIVATE";
  const std::string line = std::to_string(lodestone::testing::lineOf(text, "<UserProgramControl"));
  EXPECT_NE(stderrText().find(deck + ":" + line + ":5: warning: UserProgramControl: " + refusal), std::string::npos)
      << stderrText();
  EXPECT_NE(stdoutText().find("simulation completed (1 warning)"), std::string::npos) << stdoutText();
  const std::vector<std::string> lines = log("out");
  EXPECT_EQ(countLines(lines, " WARNING: " + controlName(deck, text) + ": " + refusal), 1);
  EXPECT_EQ(countLines(lines, "CONSUB_UNSUPPORTED_MODIFY (c_errmes, id=0): MODIFY MARKER status=-1"), 1);
  EXPECT_EQ(ResultsTable(folder / "out/bodies.csv").rowCount(), 51u);
}

// ANALYS and MODIFY belong to CONSUB: an SFOSUB's c_analys is refused (status -1, a line in run.log) and the run goes
// on; a script's py_analys outside CONSUB raises NotInConsubError.
TEST_F(ConsubRun, AnalysOutsideConsubIsRefused) {
  const std::string text = fallDeck(
      "    <Simulate analysis_type=\"Transient\" end_time=\"0.1\" print_interval=\"0.01\"/>\n",
      "    <Force_Scalar_TwoBody id=\"300\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
      "usrsub_dll_name=\"consub_fixtures\" usrsub_fnc_name=\"SFOSUB_CALLS_ANALYS\"/>\n");
  const std::string deck = folder.write("nested.xml", text);
  EXPECT_EQ(run(deck, "out"), 0) << stderrText();
  EXPECT_GE(countLines(log("out"), "c_analys called from SFOSUB_CALLS_ANALYS: may only be called from CONSUB"), 1);
  EXPECT_EQ(ResultsTable(folder / "out/bodies.csv").rowCount(), 11u);

  const std::string script = folder.write("top_level.py", "py_analys('TRANSIENT', 'too early', 0.0, 1.0, 0)\n"
                                                          "def CONSUB(par, npar):\n    pass\n");
  const std::string topLevelText = fallDeck(pythonControl("CONSUB", "USER(1)", script));
  const std::string topLevel = folder.write("top_level.xml", topLevelText);
  EXPECT_EQ(run(topLevel, "top"), 1);
  EXPECT_NE(stderrText().find("raised NotInConsubError: py_analys may only be called from CONSUB"),
            std::string::npos) << stderrText();
}

}  // namespace
}  // namespace lodestone::cli::testing
