// Python user subroutines in this process: where scripts are looked for, how they load (once while in use) and
// fail to load, the arguments each prototype hands to Python, what it must return, and the py_* utilities, which
// must answer exactly what the C utilities answer — against a host that stands in for a running simulation.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "lodestone/usersub.h"
#include "plugins/python_scripts.h"
#include "plugins/user_subroutine.h"
#include "plugins/usersub/subroutine_host.h"
#include "cli/temporary_folder.h"
#include "support/fake_subroutine_host.h"

namespace lodestone {
namespace {

namespace fs = std::filesystem;

using testing::FakeHost;
using cli::testing::TemporaryFolder;

// The arguments every CNFSUB and CFFSUB call below is made with.
NormalCall normalCall() {
  return {.id = 7, .time = 0.5, .loci = {1, 2, 3}, .ni = {0, 0, -1}, .locj = {4, 5, 6}, .nj = {0, 0, 1},
          .gap = -1e-3, .gapdot = -0.2, .gapdotdot = 3, .dflag = true, .iflag = false};
}
FrictionCall frictionCall() {
  return {.id = 7, .time = 0.5, .loci = {1, 2, 3}, .locj = {4, 5, 6}, .x = {1e-3, 0, 0}, .xdot = {0.25, 0, 0},
          .nforce = 12.5, .dflag = false, .iflag = false};
}

const char* kScript = R"(
import builtins
builtins.lodestone_test_loads = getattr(builtins, "lodestone_test_loads", 0) + 1

def CNFSUB(id, time, par, npar, loci, ni, locj, nj, gap, gapdot, gapdotdot, dflag, iflag):
    assert type(id) is int and type(time) is float and type(par) is list and type(loci) is list, "types"
    assert (id, time, par, npar) == (7, 0.5, [1.0, 2.5], 2), (id, time, par, npar)
    assert (loci, ni, locj, nj) == ([1.0, 2.0, 3.0], [0.0, 0.0, -1.0], [4.0, 5.0, 6.0], [0.0, 0.0, 1.0])
    assert (gap, gapdot, gapdotdot, dflag) == (-1e-3, -0.2, 3.0, 1), (gap, gapdot, gapdotdot, dflag)
    if iflag:
        return None  # not read
    return (42.0,)  # any sequence

def CFFSUB(id, time, par, npar, loci, locj, x, xdot, nforce, dflag, iflag):
    assert (id, time, par, npar, loci, locj) == (7, 0.5, [1.0, 2.5], 2, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    assert (x, xdot, nforce, dflag, iflag) == ([1e-3, 0.0, 0.0], [0.25, 0.0, 0.0], 12.5, 0, 0)
    return [1.0, -2.0, 0.5]

posted = None
def CONTACTPOST(id, i_gra_id, j_gra_id, time, par, npar, iflag, endflg):
    global posted
    posted = (id, i_gra_id, j_gra_id, time, par, npar, iflag, endflg)
    return "ignored"

def POSTED(id, time, par, npar, loci, locj, x, xdot, nforce, dflag, iflag):
    return [1.0 if posted == (300, 1, 2, 0.75, [1.0, 2.5], 2, 1, 0) else 0.0, 0, 0]

def LOADS(id, time, par, npar, loci, locj, x, xdot, nforce, dflag, iflag):
    return [builtins.lodestone_test_loads, 0, 0]

def SYSFNC(*args):
    value, errflg = py_sysfnc("DX", [10, 20, 20])
    time_now, errflg2 = py_sysfnc("TIME")
    return [value, errflg + errflg2, time_now]

def SYSFNC_BAD(*args):
    value, errflg = py_sysfnc("DX", [99])
    return [value, errflg, 0]

def SYSARY(*args):
    values, errflg = py_sysary("VEL", [10.0, 20.0])
    return [values[1] + 10 * values[5], errflg, len(values)]

def STEP(*args):
    value, errflg = py_step(0.37, 0.2, 1.0, 0.8, 3.0, 1)
    return [value, errflg, 0]

def IMPACT(*args):
    vector, errflg = py_impact(-5e-4, -0.1, 0.0, 1e7, 1.5, 20, 1e-4, 1)
    return [vector[0], vector[1], errflg + 10 * len(vector)]

def CONTACTS(*args):
    count, errflg = py_get_ncontacts(300, 1, 2)
    depth, errflg2 = py_get_contact_post(300, 1, 2, "PD", 0, 1)
    force, errflg3 = py_get_contact_post(300, 1, 2, "TOTAL_FORCE", 0, 1)
    return [count + 10 * (errflg + errflg2 + errflg3), depth[0], force[0] + 100 * force[2]]

def ERRMES(*args):
    py_errmes(1, "from Python", 7, "STOP")
    return [0, 0, 0]

def IMPORTED(*args):
    import lodestone_usersub
    from lodestone_usersub import py_step as step
    return [lodestone_usersub.py_step is py_step and step is py_step, 0, 0]

def BAD_ID(*args):
    py_sysfnc("DX", [10.5])
)";

class PythonSubroutines : public ::testing::Test {
 protected:
  PythonSubroutines() { script = scripts.load(folder.write("contact.py", kScript)); }
  UserSubroutine routine(const std::string& function) const {
    UserSubroutine r;
    r.function = function;
    r.file = script->path();
    r.parameters = {1.0, 2.5};
    r.python = scriptFunction(script, function);
    return r;
  }
  std::array<double, 3> call(const std::string& function) const { return callSubroutine(routine(function), frictionCall()); }

  TemporaryFolder folder;  // the scripts of one test, removed afterwards
  PythonScripts scripts{folder.path().string()};
  std::shared_ptr<const PythonScript> script;
  FakeHost host;
  ScopedSubroutineHost installed{host};
};

// What a failing call says, in full, for a failed expectation.
std::string pythonFailureOf(const std::function<void()>& body) {
  try {
    body();
  } catch (const SubroutineError& error) {
    return std::string(error.what()) + "\n" + error.details();
  }
  return "(no failure)";
}

TEST(PythonScriptLookup, BesideTheDeckThenEachSearchPathFolder) {
  EXPECT_EQ(scriptCandidates("contact.py", "/decks", "/opt/a::/opt/b"),
            (std::vector<std::string>{"/decks/contact.py", "/opt/a/contact.py", "/opt/b/contact.py"}));
  EXPECT_EQ(scriptCandidates("/abs/contact.py", "/decks", "/opt/a"), std::vector<std::string>{"/abs/contact.py"});
  EXPECT_EQ(scriptCandidates("sub/c.py", "", ""), std::vector<std::string>{"./sub/c.py"});
}

TEST_F(PythonSubroutines, EachPrototypeGetsMotionSolvesArguments) {
  double force = 0;
  const std::string failure = pythonFailureOf([&] { force = callSubroutine(routine("CNFSUB"), normalCall()); });
  EXPECT_EQ(force, 42.0) << failure;
  NormalCall setUp = normalCall();
  setUp.iflag = true;
  EXPECT_EQ(callSubroutine(routine("CNFSUB"), setUp), 0.0) << "the set-up call's return value is not read";
  EXPECT_EQ(call("CFFSUB"), (std::array<double, 3>{1.0, -2.0, 0.5})) << pythonFailureOf([&] { call("CFFSUB"); });
  callSubroutine(routine("CONTACTPOST"), ContactPostCall{.id = 300, .iGraphic = 1, .jGraphic = 2, .time = 0.75,
                                                         .iflag = true, .endflg = false});
  EXPECT_EQ(call("POSTED")[0], 1.0);
}

TEST_F(PythonSubroutines, UtilitiesAnswerWhatTheCUtilitiesAnswer) {
  int ipar[3] = {10, 20, 20}, errflg = -1;
  double expected = 0;
  c_sysfnc("DX", ipar, 3, &expected, &errflg);
  EXPECT_EQ(call("SYSFNC"), (std::array<double, 3>{expected, 0, 1.25}));

  EXPECT_EQ(call("SYSFNC_BAD")[1], 1.0);
  EXPECT_EQ(host.lastProblem, "c_sysfnc: no Reference_Marker id=99 in the model");

  double states[6];
  int count = 0;
  c_sysary("VEL", ipar, 2, states, &count, &errflg);
  EXPECT_EQ(call("SYSARY"), (std::array<double, 3>{states[1] + 10 * states[5], 0, 6}));

  c_step(0.37, 0.2, 1.0, 0.8, 3.0, 1, &expected, &errflg);
  EXPECT_EQ(call("STEP"), (std::array<double, 3>{expected, 0, 0}));

  double partials[2];
  c_impact(-5e-4, -0.1, 0.0, 1e7, 1.5, 20, 1e-4, 1, partials, &errflg);
  EXPECT_EQ(call("IMPACT"), (std::array<double, 3>{partials[0], partials[1], 30}));

  EXPECT_EQ(call("CONTACTS"), (std::array<double, 3>{2, 2e-4, 1 + 100 * 5.0}));

  call("ERRMES");
  EXPECT_EQ(host.lastMessage, "7:from Python:error:stop");

  EXPECT_EQ(call("IMPORTED")[0], 1.0) << "lodestone_usersub is importable and holds the same functions";

  const std::string badId = pythonFailureOf([&] { call("BAD_ID"); });
  EXPECT_NE(badId.find("raised ValueError: py_sysfnc: marker ids must be whole numbers, not 10.5"), std::string::npos)
      << badId;
}

TEST_F(PythonSubroutines, AScriptRunsOnceWhileAModelHoldsIt) {
  const double loads = call("LOADS")[0];
  EXPECT_EQ(scripts.load(script->path()), script) << "the same module while it is held";
  PythonScripts another(folder.path().string());
  EXPECT_EQ(another.load("contact.py"), script) << "also for another build (a Modify) of the same run";
  EXPECT_EQ(call("LOADS")[0], loads);
  script.reset();
  script = scripts.load("contact.py");
  EXPECT_EQ(call("LOADS")[0], loads + 1) << "released, it runs anew (the next run)";
}

TEST_F(PythonSubroutines, ExceptionsAndWrongReturnValuesAreSubroutineErrors) {
  folder.write("bad.py", R"(
def helper(x):
    return 1 / x

def RAISES(*args):
    return [helper(0)]

def TWO(*args):
    return [1.0, 2.0]

def TEXT(*args):
    return "1.0"

def NONE(*args):
    pass

def NOT_NUMBER(*args):
    return [1.0, "2", 3.0]

def NAN(*args):
    return [float("nan"), 0, 0]
)");
  const std::shared_ptr<const PythonScript> bad = scripts.load("bad.py");
  const auto failure = [&](const std::string& function, bool friction) {
    UserSubroutine r;
    r.function = function;
    r.file = bad->path();
    r.python = scriptFunction(bad, function);
    try {
      if (friction) callSubroutine(r, frictionCall());
      else callSubroutine(r, normalCall());
    } catch (const SubroutineError& error) {
      return std::string(error.what()) + "|" + error.details();
    }
    return std::string("(no failure)");
  };
  const std::string raised = failure("RAISES", false);
  EXPECT_EQ(raised.substr(0, raised.find('|')),
            "RAISES in " + bad->path() + " raised ZeroDivisionError: division by zero (line 3)");
  EXPECT_NE(raised.find("|Traceback (most recent call last):\n  File \"" + bad->path() + "\", line 6, in RAISES"),
            std::string::npos)
      << raised;
  EXPECT_NE(raised.find("ZeroDivisionError: division by zero"), std::string::npos);
  EXPECT_EQ(failure("TWO", false), "TWO in " + bad->path() + " returned 2 values ([1.0, 2.0]); it must return a "
                                   "sequence of 1 number, [normal force]|");
  EXPECT_EQ(failure("TWO", true), "TWO in " + bad->path() + " returned 2 values ([1.0, 2.0]); it must return a "
                                  "sequence of 3 numbers, [fx, fy, fz], the friction force in the contact frame|");
  EXPECT_EQ(failure("TEXT", false), "TEXT in " + bad->path() + " returned a str ('1.0'); it must return a sequence "
                                    "of 1 number, [normal force]|");
  EXPECT_NE(failure("NONE", false).find("NONE in " + bad->path() + " returned None; it must return"), std::string::npos);
  EXPECT_NE(failure("NOT_NUMBER", true).find("returned a sequence whose element 1 is a str ('2'), not a number"),
            std::string::npos);
  EXPECT_EQ(failure("NAN", true), "(no failure)") << "a number, even NaN, is the evaluator's to judge";
}

TEST_F(PythonSubroutines, LoadFailuresSayWhichFileLineAndName) {
  const auto loadError = [&](const std::string& name) {
    try {
      scripts.load(name);
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string("(loaded)");
  };
  const std::string missing = loadError("no_such.py");
  EXPECT_EQ(missing.substr(0, missing.find(" (tried")), "script \"no_such.py\" not found");
  EXPECT_NE(missing.find(folder / "no_such.py"), std::string::npos) << missing;

  const std::string syntax = folder.write("syntax.py", "def CNFSUB(*args):\n    return [1.0\n\nx = 2\n");
  EXPECT_EQ(loadError("syntax.py"), "SyntaxError in " + syntax + ", line 2: '[' was never closed (return [1.0)");
  const std::string indented = folder.write("indent.py", "def CNFSUB(*args):\nreturn [1.0]\n");
  EXPECT_EQ(loadError("indent.py"),
            "IndentationError in " + indented + ", line 2: expected an indented block after function definition on "
            "line 1 (return [1.0])");
  const std::string raising = folder.write("raising.py", "import math\n\nvalue = math.sqrt(-1)\n");
  EXPECT_EQ(loadError("raising.py"), "running " + raising + " raised ValueError: math domain error (line 3)");

  const auto functionError = [&](const std::string& name) {
    try {
      scriptFunction(script, name);
    } catch (const std::runtime_error& error) {
      return std::string(error.what());
    }
    return std::string("(found)");
  };
  const std::string absent = functionError("CNFSUB_X");
  EXPECT_EQ(absent.substr(0, absent.find(" (")), "no function CNFSUB_X in " + script->path());
  EXPECT_NE(absent.find("(it defines CNFSUB, CFFSUB, CONTACTPOST, POSTED"), std::string::npos) << absent;
  EXPECT_EQ(functionError("posted"), "posted in " + script->path() + " is a NoneType, not a function");
}

}  // namespace
}  // namespace lodestone
