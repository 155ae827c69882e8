// User subroutines written in Python, end to end: the example script's IMPACT and COULOMB_ON reproduce the
// built-in laws and its CONTACTPOST writes what the C library's does; py_sysfnc imported from lodestone_usersub
// measures the model as c_sysfnc does; scripts are found through LODESTONE_USERSUB_PATH; a script that cannot be
// used is a bad deck (exit 1) naming the file, the function and the element's line; and a subroutine that raises
// or returns the wrong thing ends the run with exit 2, results kept, its traceback in run.log.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "subroutine_runs.h"

namespace lodestone::cli {
namespace {

namespace fs = std::filesystem;
using lodestone::testing::ResultsTable;
using namespace testing;

const std::string& kPyModels = kUsersubModels;
const std::string kPythonFixtures = std::string(LODESTONE_SOURCE_DIR) + "/tests/fixtures/";
const std::string kFailures = kPythonFixtures + "usersub_failures.py";

void replaceOnce(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("sphere_python.xml changed: update the tests' decks");
  text.replace(at, from.size(), to);
}

// The Python sphere deck with another script and normal-force function, the built-in COULOMB_ON friction, and
// `post` in place of the CONTACTPOST attributes.
std::string pythonDeck(const std::string& script, const std::string& function, const std::string& parameters,
                       const std::string& post = "") {
  std::string deck = readFile(kPyModels + "sphere_python.xml");
  replaceOnce(deck, "script_name=\"impact_coulomb.py\"", "script_name=\"" + script + "\"");
  replaceOnce(deck, "cnf_param_string=\"USER(1e7, 1.5, 20., 1e-4)\" cnf_fnc_name=\"CNFSUB\"",
              "cnf_param_string=\"USER(" + parameters + ")\" cnf_fnc_name=\"" + function + "\"");
  replaceOnce(deck, "cff_type=\"USERCFF\" cff_param_string=\"USER(0.3, 0.2, 0.01, 0.05)\" cff_fnc_name=\"CFFSUB\"",
              "cff_type=\"COULOMB_ON\" mu_static=\"0.3\" mu_dynamic=\"0.2\" stiction_trans_vel=\"0.01\" "
              "friction_trans_vel=\"0.05\"");
  replaceOnce(deck, "cpost_fnc_name=\"CONTACTPOST\"", post);
  return deck;
}

class PythonSubroutineRun : public SubroutineRun {};

TEST_F(PythonSubroutineRun, ScriptReproducesTheBuiltInImpactAndCoulombOn) {
  // Python's floats are C doubles with C's pow and sqrt, so the script agrees with the built-in laws to the bit.
  expectBuiltInResults(kPyModels + "sphere_python.xml");
}

TEST_F(PythonSubroutineRun, ContactPostWritesWhatTheCLibrarysWrites) {
  // py_get_ncontacts and py_get_contact_post answer what c_get_ncontacts and c_get_contact_post do, and the first
  // (iflag) and last (endflg) calls come at the same points.
  ASSERT_EQ(run(kPyModels + "sphere_usersub.xml", "c"), 0) << stderrText();
  const std::string fromC = readFile(folder / "contact_history_300.csv");
  fs::remove(folder / "contact_history_300.csv");
  ASSERT_EQ(run(kPyModels + "sphere_python.xml", "python"), 0) << stderrText();
  const std::string fromPython = readFile(folder / "contact_history_300.csv");
  EXPECT_GT(std::count(fromC.begin(), fromC.end(), '\n'), 10);
  EXPECT_EQ(fromPython, fromC);
}

TEST_F(PythonSubroutineRun, ImportedSysfncMeasuresTheModelAsTheCUtilityDoes) {
  // The same subroutine in C (usersub_test_fixtures) and in Python: identical results, so py_sysfnc gives exactly
  // what c_sysfnc gives, and `from lodestone_usersub import py_sysfnc` works.
  std::string cDeck = readFile(kPyModels + "sphere_usersub.xml");
  replaceOnce(cDeck, "cnf_param_string=\"USER(1e7, 1.5, 20., 1e-4)\" cnf_dll_name=\"usersub_examples\"",
              "cnf_param_string=\"USER(1e7, 1.5, 20., 1e-4, 20, 0.02)\" cnf_dll_name=\"usersub_test_fixtures\" "
              "cnf_fnc_name=\"CNFSUB_SYSFNC\"");
  replaceOnce(cDeck, "cff_type=\"USERCFF\" cff_param_string=\"USER(0.3, 0.2, 0.01, 0.05)\" cff_dll_name=\"usersub_examples\"",
              "cff_type=\"COULOMB_ON\" mu_static=\"0.3\" mu_dynamic=\"0.2\" stiction_trans_vel=\"0.01\" "
              "friction_trans_vel=\"0.05\"");
  replaceOnce(cDeck, "cpost_dll_name=\"usersub_examples\"", "");
  ASSERT_EQ(run(folder.write("c.xml", cDeck), "c"), 0) << stderrText();
  const std::string deck = folder.write("python.xml", pythonDeck(kFailures, "CNFSUB_SYSFNC", "1e7, 1.5, 20., 1e-4, 20, 0.02"));
  ASSERT_EQ(run(deck, "python"), 0) << stderrText();
  const ResultsTable python(folder / "python/contacts.csv"), c(folder / "c/contacts.csv");
  ASSERT_EQ(python.rowCount(), c.rowCount());
  EXPECT_EQ(largestDifference(python, c, kContactColumns), 0.0);
}

TEST_F(PythonSubroutineRun, RelativeScriptIsFoundThroughLodestoneUsersubPath) {
  const std::string deck = folder.write("path.xml", pythonDeck("usersub_failures.py", "CNFSUB_SYSFNC",
                                                               "1e7, 1.5, 20., 1e-4, 20, 0.02"));
  setenv("LODESTONE_USERSUB_PATH", ("/no/such/folder:" + kPythonFixtures).c_str(), 1);
  const int exitCode = run(deck, "path");
  unsetenv("LODESTONE_USERSUB_PATH");
  EXPECT_EQ(exitCode, 0) << stderrText();
}

TEST_F(PythonSubroutineRun, ScriptImportsPythonsCompiledModules) {
  // ctypes and decimal are extension modules (lib-dynload): they find libpython's symbols only because the module
  // that embeds the interpreter is loaded with its symbols shared (plugins/python_engine_loader.cpp).
  const std::string imports = "import ctypes\nimport decimal\n";
  const std::string script = folder.write("compiled_imports.py", imports + readFile(kPyModels + "impact_coulomb.py"));
  std::string deck = readFile(kPyModels + "sphere_python.xml");
  replaceOnce(deck, "script_name=\"impact_coulomb.py\"", "script_name=\"" + script + "\"");
  EXPECT_EQ(runLodestone({"lodestone", "check", folder.write("imports.xml", deck)}), 0) << stderrText();
}

TEST_F(PythonSubroutineRun, MissingScriptIsABadDeckNamingTheFileAndTheFunctions) {
  const std::string text = readFile(kPyModels + "sphere_python.xml");
  std::string deck = text;
  replaceOnce(deck, "script_name=\"impact_coulomb.py\"", "script_name=\"no_such_script.py\"");
  const std::string path = folder.write("missing.xml", deck);
  EXPECT_EQ(run(path, "missing"), 1);
  const std::string expected = elementError(path, deck) +
                               "script_name=\"no_such_script.py\" (for CNFSUB, CFFSUB and CONTACTPOST): script "
                               "\"no_such_script.py\" not found (tried " + (folder / "no_such_script.py");
  const std::string console = stderrText();
  EXPECT_NE(console.find(expected), std::string::npos) << console;
  EXPECT_NE(console.find("LODESTONE_USERSUB_PATH"), std::string::npos) << console;
  EXPECT_EQ(std::count(console.begin(), console.end(), '\n'), 2) << "one error, then the outcome line:\n" << console;
}

TEST_F(PythonSubroutineRun, SyntaxErrorIsABadDeckWithTheFileLineAndPythonsMessage) {
  const std::string script = kPythonFixtures + "usersub_syntax_error.py";
  const std::string deck = pythonDeck(script, "CNFSUB", "1e7, 1.5, 20., 1e-4");
  const std::string path = folder.write("syntax.xml", deck);
  EXPECT_EQ(run(path, "syntax"), 1);
  const std::string expected = elementError(path, deck) + "script_name=\"" + script + "\" (for CNFSUB): SyntaxError in " +
                               script + ", line 6: closing parenthesis ']' does not match opening parenthesis '(' "
                               "(return [par[0] * (penetration ** par[1]])";
  EXPECT_NE(stderrText().find(expected), std::string::npos) << stderrText();
}

TEST_F(PythonSubroutineRun, MissingOrUncallableFunctionIsABadDeck) {
  const std::string missing = pythonDeck(kFailures, "NO_SUCH_CNFSUB", "1e7, 1.5, 20., 1e-4");
  const std::string missingPath = folder.write("missing_function.xml", missing);
  EXPECT_EQ(run(missingPath, "missing"), 1);
  EXPECT_NE(stderrText().find(elementError(missingPath, missing) + "cnf_fnc_name=\"NO_SUCH_CNFSUB\": no function "
                              "NO_SUCH_CNFSUB in " + kFailures + " (it defines CNFSUB_RAISES, CNFSUB_TWO_VALUES"),
            std::string::npos)
      << stderrText();

  const std::string number = pythonDeck(kFailures, "NOT_A_FUNCTION", "1e7, 1.5, 20., 1e-4");
  const std::string numberPath = folder.write("not_callable.xml", number);
  EXPECT_EQ(run(numberPath, "number"), 1);
  EXPECT_NE(stderrText().find(elementError(numberPath, number) + "cnf_fnc_name=\"NOT_A_FUNCTION\": NOT_A_FUNCTION in " +
                              kFailures + " is a int, not a function"),
            std::string::npos)
      << stderrText();
}

TEST_F(PythonSubroutineRun, ExceptionEndsTheRunWithExit2KeepingTheResultsAndTheTraceback) {
  // CNFSUB_RAISES raises at its first call after t = 0.02: the ball's first touch, at about 0.045 s.
  const std::string deck = pythonDeck(kFailures, "CNFSUB_RAISES", "1e7, 1.5, 20., 1e-4, 0.02");
  const std::string path = folder.write("raises.xml", deck);
  EXPECT_EQ(run(path, "raises"), 2);
  const std::string log = readFile(folder / "raises/run.log");
  const std::string what = elementName(path, deck) + ": CNFSUB_RAISES in " + kFailures +
                           " raised RuntimeError: the test raises here (line 17) at t=";
  EXPECT_NE(log.find(" ERROR: " + what), std::string::npos) << log;
  // The whole traceback, one call deep, indented under that line.
  const size_t traceback = log.find("    Traceback (most recent call last):");
  ASSERT_NE(traceback, std::string::npos) << log;
  EXPECT_NE(log.find("    File \"" + kFailures + "\", line 23, in CNFSUB_RAISES", traceback), std::string::npos) << log;
  EXPECT_NE(log.find("    File \"" + kFailures + "\", line 17, in _fail_here", traceback), std::string::npos) << log;
  EXPECT_NE(log.find("    RuntimeError: the test raises here", traceback), std::string::npos) << log;
  EXPECT_NE(log.find("Simulation FAILED at t="), std::string::npos) << log;
  // The console has the one-line reason.
  EXPECT_NE(stderrText().find(what), std::string::npos) << stderrText();
  EXPECT_NE(stderrText().find("(traceback in run.log); results up to the failure are kept"), std::string::npos)
      << stderrText();

  const ResultsTable bodies(folder / "raises/bodies.csv"), contacts(folder / "raises/contacts.csv");
  ASSERT_GT(bodies.rowCount(), 5u);
  const double last = bodies.at(bodies.rowCount() - 1, "time");
  EXPECT_GE(last, 0.04);
  EXPECT_LT(last, 0.05) << "the run stops at the call that raised";
  ASSERT_GT(contacts.rowCount(), 5u);
  EXPECT_EQ(contacts.at(contacts.rowCount() - 1, "time"), last);
}

TEST_F(PythonSubroutineRun, WrongNumberOfReturnedValuesEndsTheRunWithExit2) {
  const std::string deck = pythonDeck(kFailures, "CNFSUB_TWO_VALUES", "1e7, 1.5, 20., 1e-4");
  const std::string path = folder.write("two.xml", deck);
  EXPECT_EQ(run(path, "two"), 2);
  const std::string log = readFile(folder / "two/run.log");
  EXPECT_NE(log.find(elementName(path, deck) + ": CNFSUB_TWO_VALUES in " + kFailures + " returned 2 values (["),
            std::string::npos)
      << log;
  EXPECT_NE(log.find(", 0.0]); it must return a sequence of 1 number, [normal force] at t="),
            std::string::npos)
      << log;
  const ResultsTable bodies(folder / "two/bodies.csv");
  EXPECT_GE(bodies.rowCount(), 1u) << "the output at the start is kept";
}

TEST_F(PythonSubroutineRun, TextInsteadOfAListEndsTheRunWithExit2) {
  const std::string deck = pythonDeck(kFailures, "CNFSUB_STRING", "1e7, 1.5, 20., 1e-4");
  const std::string path = folder.write("string.xml", deck);
  EXPECT_EQ(run(path, "string"), 2);
  EXPECT_NE(readFile(folder / "string/run.log")
                .find("CNFSUB_STRING in " + kFailures + " returned a str ('force'); it must return a sequence of 1 "
                      "number, [normal force]"),
            std::string::npos)
      << readFile(folder / "string/run.log");
}

TEST_F(PythonSubroutineRun, ContactPostExceptionAtAnOutputEndsTheRunWithExit2) {
  // CONTACTPOST runs at outputs, outside the integrator: the same ending, from the other route.
  const std::string deck = pythonDeck(kFailures, "CNFSUB_STOP", "1e7, 1.5, 20., 1e-4, 10",
                                      "cpost_fnc_name=\"CONTACTPOST_RAISES\" cpost_param_string=\"USER(0.1)\"");
  const std::string path = folder.write("post.xml", deck);
  EXPECT_EQ(run(path, "post"), 2);
  const std::string log = readFile(folder / "post/run.log");
  EXPECT_NE(log.find(elementName(path, deck) + ": CONTACTPOST_RAISES in " + kFailures +
                     " raised ValueError: CONTACTPOST cannot go on (line 52) at t="),
            std::string::npos)
      << log;
  const ResultsTable bodies(folder / "post/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 5u);
  EXPECT_GT(bodies.at(bodies.rowCount() - 1, "time"), 0.09);
  EXPECT_LT(bodies.at(bodies.rowCount() - 1, "time"), 0.3);
}

TEST_F(PythonSubroutineRun, ContactPostExceptionOnItsLastCallFailsTheCompletedRun) {
  const std::string deck = pythonDeck(kFailures, "CNFSUB_STOP", "1e7, 1.5, 20., 1e-4, 10",
                                      "cpost_fnc_name=\"CONTACTPOST_FAILS_TO_CLOSE\"");
  const std::string path = folder.write("close.xml", deck);
  EXPECT_EQ(run(path, "close"), 2);
  const std::string log = readFile(folder / "close/run.log");
  EXPECT_NE(log.find("Simulation FAILED at t=6.000000E-01: " + elementName(path, deck) +
                     ": CONTACTPOST_FAILS_TO_CLOSE in " + kFailures + " raised OSError: the history cannot be closed"),
            std::string::npos)
      << log;
  const ResultsTable bodies(folder / "close/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 5u);
  EXPECT_EQ(bodies.at(bodies.rowCount() - 1, "time"), 0.6) << "every output was written";
}

TEST_F(PythonSubroutineRun, ErrmesWithStopEndsTheRunWithExit2) {
  const std::string deck = pythonDeck(kFailures, "CNFSUB_STOP", "1e7, 1.5, 20., 1e-4, 0.02");
  const std::string path = folder.write("stop.xml", deck);
  EXPECT_EQ(run(path, "stop"), 2);
  const std::string log = readFile(folder / "stop/run.log");
  EXPECT_NE(log.find(elementName(path, deck) + ": CNFSUB_STOP in " + kFailures +
                     " asked to stop (py_errmes): the test asks to stop here"),
            std::string::npos)
      << log;
  const ResultsTable bodies(folder / "stop/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 5u);
  EXPECT_LT(bodies.at(bodies.rowCount() - 1, "time"), 0.05);
}

// run.log says which script the run executes, for each element and subroutine.
TEST_F(PythonSubroutineRun, RunLogListsTheScriptOfEachSubroutine) {
  const std::string deck = kPyModels + "sphere_python.xml";
  ASSERT_EQ(run(deck, "python"), 0) << stderrText();
  const std::string log = readFile(folder / "python/run.log");
  const std::string script = fs::canonical(kPyModels + "impact_coulomb.py").string();
  const std::string element = " " + elementName(deck, readFile(deck)) + ": ";
  EXPECT_NE(log.find(element + "normal force CNFSUB from script " + script + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find(element + "friction force CFFSUB from script " + script + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find(element + "CONTACTPOST CONTACTPOST from script " + script + "\n"), std::string::npos) << log;
}

// check parses a script without executing its top level; run executes it, as MotionSolve does.
TEST_F(PythonSubroutineRun, CheckParsesAScriptWithoutExecutingItAndRunExecutesIt) {
  const std::string script = kPythonFixtures + "usersub_top_level.py";
  const std::string deck = folder.write("top_level.xml", pythonDeck(script, "CNFSUB", "1e7"));
  EXPECT_EQ(runLodestone({"lodestone", "check", deck}), 0) << stderrText();
  EXPECT_NE(stdoutText().find(deck + ": OK"), std::string::npos) << stdoutText();
  EXPECT_FALSE(fs::exists(folder / "script_ran")) << "check executed the script";

  const std::string misspelt = folder.write("misspelt.xml", pythonDeck(script, "CNFSUB_MISSING", "1e7"));
  EXPECT_EQ(runLodestone({"lodestone", "check", misspelt}), 1);
  EXPECT_NE(stderrText().find("cnf_fnc_name=\"CNFSUB_MISSING\": no function CNFSUB_MISSING in " + script +
                              " (it defines CNFSUB)"),
            std::string::npos)
      << stderrText();
  EXPECT_FALSE(fs::exists(folder / "script_ran"));

  EXPECT_EQ(run(deck, "run"), 0) << stderrText();
  EXPECT_TRUE(fs::exists(folder / "script_ran")) << "run executes the script";
}

// A stop asked for in the set-up call (iflag) stops the run at its start, before any step.
TEST_F(PythonSubroutineRun, AStopInTheSetUpCallStopsTheRunAtItsStart) {
  const std::string deck = pythonDeck(kFailures, "CNFSUB_STOP", "1e7, 1.5, 20., 1e-4, -1");
  const std::string path = folder.write("setup.xml", deck);
  EXPECT_EQ(run(path, "setup"), 2);
  const std::string log = readFile(folder / "setup/run.log");
  EXPECT_NE(log.find("\nSimulation FAILED at t=0.000000E+00: " + elementName(path, deck) + ": CNFSUB_STOP in "),
            std::string::npos)
      << log;
}


// One time per failure: run.log's last line ends the run at the time of the call that failed, which the reason
// gives (to the log's six digits), not at IDAS's last step before it.
TEST_F(PythonSubroutineRun, AFailureEndsTheRunAtTheTimeOfTheFailingCall) {
  const std::string deck = pythonDeck(kFailures, "CNFSUB_RAISES", "1e7, 1.5, 20., 1e-4, 0.02");
  const std::string path = folder.write("raises.xml", deck);
  EXPECT_EQ(run(path, "raises"), 2);
  std::string log = readFile(folder / "raises/run.log");
  log = log.substr(log.rfind("\nSimulation FAILED at t=") + 1);
  const double endedAt = std::stod(log.substr(std::string("Simulation FAILED at t=").size()));
  const size_t callTime = log.find("(line 17) at t=");
  ASSERT_NE(callTime, std::string::npos) << log;
  const double calledAt = std::stod(log.substr(callTime + std::string("(line 17) at t=").size()));
  EXPECT_NEAR(endedAt, calledAt, 5e-7 * calledAt) << log;
}

}  // namespace
}  // namespace lodestone::cli
