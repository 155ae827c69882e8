// SENSUB, REQSUB and DIFSUB end to end: in C (models/usersub/output_laws.c) and in Python (output_laws.py) each
// reproduces the expression element it replaces bit for bit (the sensor halts at the same time: bodies.csv byte for
// byte; requests.csv byte for byte, the Control_Diff's state included), and a library, function or script that fails
// gives its message on the element's line, or ends the run naming the subroutine. Libraries that are not installed
// (a vendor's) are warnings for `check` and one error per library for `run`, before it integrates.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <vector>

#include "cli/subroutine_runs.h"

namespace lodestone::cli {
namespace {

using namespace testing;

const std::string kOutputs = kUsersubModels + "outputs_builtin.xml";

// outputs_builtin.xml with element `id`'s line replaced by `line` (or removed when `line` is empty).
std::string swappedOut(const std::string& id, const std::string& line) { return withElementLine(kOutputs, id, line); }

// Element `id`'s line from the C twin or, with the script's absolute path, from the Python twin.
std::string outputTwinLine(const std::string& id, bool python) {
  std::string line =
      elementLine(readFile(kUsersubModels + (python ? "outputs_python.xml" : "outputs_usersub.xml")), id);
  if (python) {
    const std::string script = "script_name=\"output_laws.py\"";
    line.replace(line.find(script), script.size(), "script_name=\"" + kUsersubModels + "output_laws.py\"");
  }
  return line;
}

// requests.csv with request 600's type as the expression twin writes it: the values must be the same, byte for byte.
std::string asExpressionRequest(std::string csv) {
  for (size_t at = csv.find(",600,USERSUB,"); at != std::string::npos; at = csv.find(",600,USERSUB,", at)) {
    csv.replace(at, 13, ",600,EXPRESSION,");
  }
  return csv;
}

// Column `column` (f1 is 3) of request `id`'s rows in requests.csv, in time order.
std::vector<double> requestColumn(const std::string& csv, const std::string& id, size_t column) {
  std::vector<double> values;
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
    if (fields.size() > column && fields[1] == id) values.push_back(std::stod(fields[column]));
  }
  return values;
}

size_t rows(const std::string& csv) { return static_cast<size_t>(std::count(csv.begin(), csv.end(), '\n')); }

class OutputSubroutineRun : public SubroutineRun {
 protected:
  // "deck.xml:LINE:5: Kind id=N: ", how a deck error on element id's line begins.
  std::string where(const std::string& name, const std::string& kind, const std::string& id) {
    return folder / (name + ".xml") + ":" + std::to_string(lineOf(readFile(kOutputs), " id=\"" + id + "\"")) +
           ":5: " + kind + " id=" + id + ": ";
  }
};

// Each family alone, in C and in Python, gives the expression's results byte for byte; and the reference is one
// these could miss: the sensor halts the run before its end time, the request's values move, the state grows.
TEST_F(OutputSubroutineRun, EachSubroutineEqualsItsExpressionElementBitForBit) {
  ASSERT_EQ(run(kOutputs, "builtin"), 0) << stderrText();
  const std::string bodies = results("builtin", "bodies.csv");
  const std::string requests = results("builtin", "requests.csv");
  // Halted by the sensor: rows every 0.01 s from 0 up to the halt, short of the end time (1 s, 101 rows each body).
  EXPECT_GT(rows(bodies), 20u);
  EXPECT_LT(rows(bodies), 2u * 101u);
  EXPECT_NE(log("builtin").find("Sensor_Event id=500"), std::string::npos) << log("builtin");
  const std::map<std::string, std::string> families{{"500", "SENSUB"}, {"600", "REQSUB"}, {"700", "DIFSUB"}};
  for (const auto& [id, function] : families) {
    for (const bool python : {false, true}) {
      const std::string name = function + (python ? "_python" : "_c");
      ASSERT_EQ(runDeck(name, swappedOut(id, outputTwinLine(id, python))), 0) << name << ": " << stderrText();
      EXPECT_EQ(results(name, "bodies.csv"), bodies) << name << " differs from the expression element";
      EXPECT_EQ(asExpressionRequest(results(name, "requests.csv")), requests)
          << name << " differs from the expression element";
    }
  }
  // The whole twins, every element a subroutine, and run.log names none of them as missing.
  for (const char* twin : {"outputs_usersub.xml", "outputs_python.xml"}) {
    ASSERT_EQ(run(kUsersubModels + twin, twin), 0) << stderrText();
    EXPECT_EQ(results(twin, "bodies.csv"), bodies) << twin;
    const std::string written = results(twin, "requests.csv");
    EXPECT_NE(written.find(",600,USERSUB,"), std::string::npos) << twin;
    EXPECT_EQ(asExpressionRequest(written), requests) << twin;
  }
  // The DIFSUB's state obeys its equation, DIF1 = DX(12,22) - 2*DIF, at every output (request 600's f1 is DX(12,22),
  // 601's f1 and f2 are DIF and DIF1), to 1e-6 (measured 5e-8: outputs between steps are interpolated with the
  // integrator's accuracy, integr_tol 1e-7), and it moved from its ic 0.01 (to 0.01036 at the halt).
  const std::string difsub = results("DIFSUB_c", "requests.csv");
  const std::vector<double> dx = requestColumn(difsub, "600", 3), state = requestColumn(difsub, "601", 3),
                            rate = requestColumn(difsub, "601", 4);
  ASSERT_EQ(dx.size(), state.size());
  ASSERT_GT(state.size(), 20u);
  for (size_t k = 0; k < state.size(); ++k) EXPECT_NEAR(rate[k], dx[k] - 2 * state[k], 1e-6) << "output " << k;
  EXPECT_GT(std::fabs(state.back() - 0.01), 1e-4);
  // Without the sensor the run reaches its end time, 1 s.
  ASSERT_EQ(runDeck("no_sensor", swappedOut("500", "")), 0) << stderrText();
  EXPECT_GT(rows(results("no_sensor", "bodies.csv")), rows(bodies));
}

// Failures: the deck's line and the loader's reason (exit 1), or the run ended naming the subroutine (exit 2).
TEST_F(OutputSubroutineRun, FailuresSayWhatAndWhere) {
  const std::string fixtures = std::string(LODESTONE_SOURCE_DIR) + "/tests/fixtures/output_subroutine_failures.py";
  const std::string sensor = "<Sensor_Event id=\"500\" value=\"0.12\" compare=\"GE\" halt=\"TRUE\" type=\"USERSUB\" ";
  const std::string request = "<Post_Request id=\"600\" type=\"USERSUB\" ";
  const std::string diff = "<Control_Diff id=\"700\" type=\"USERSUB\" ic=\"0.01\" ";
  const std::vector<std::tuple<std::string, std::string, std::string, std::string>> elements{
      {"500", "Sensor_Event", "SENSUB", sensor}, {"600", "Post_Request", "REQSUB", request},
      {"700", "Control_Diff", "DIFSUB", diff}};
  for (const auto& [id, kind, function, opening] : elements) {
    const std::string missing = function + "_missing_symbol";
    EXPECT_EQ(runDeck(missing, swappedOut(id, opening + "usrsub_dll_name=\"usersub_examples\" "
                                                     "usrsub_fnc_name=\"NO_SUCH\"/>")),
              1);
    EXPECT_NE(stderrText().find(where(missing, kind, id) + "usrsub_fnc_name=\"NO_SUCH\": no function NO_SUCH in "),
              std::string::npos)
        << stderrText();
    const std::string script = function + "_missing_function";
    EXPECT_EQ(runDeck(script, swappedOut(id, opening + "script_name=\"" + fixtures + "\" interpreter=\"Python\"/>")),
              1);
    EXPECT_NE(stderrText().find(where(script, kind, id) + "usrsub_fnc_name=\"" + function + "\": no function " +
                                function + " in " + fixtures + " (it defines "),
              std::string::npos)
        << stderrText();
    // A set-up call that asks to stop (too few numbers) stops the build on the element's line.
    const std::string setup = function + "_setup_stop";
    EXPECT_EQ(runDeck(setup, swappedOut(id, opening + "usrsub_dll_name=\"usersub_examples\" "
                                                   "usrsub_param_string=\"USER(12)\"/>")),
              1);
    EXPECT_NE(stderrText().find(where(setup, kind, id) + "the set-up call (iflag = 1): " + kind + " id=" + id + " ("),
              std::string::npos)
        << stderrText();
    EXPECT_NE(stderrText().find("asked to stop (c_errmes): " + function + " needs USER("), std::string::npos)
        << stderrText();
  }

  // A Python exception: exit 2, the reason naming the element, the function, its file and the time.
  const std::string element = "Sensor_Event id=500 (" + (folder / "sensor_raises.xml") + ":" +
                              std::to_string(lineOf(readFile(kOutputs), " id=\"500\"")) + ":5): ";
  const std::string python = "script_name=\"" + fixtures + "\" interpreter=\"Python\" ";
  EXPECT_EQ(runDeck("sensor_raises", swappedOut("500", sensor + python + "usrsub_fnc_name=\"SENSUB_RAISES\"/>")),
            2);
  EXPECT_NE(stderrText().find(element + "SENSUB_RAISES in " + fixtures +
                              " raised ZeroDivisionError: float division by zero (line 7) at t="),
            std::string::npos)
      << stderrText();
  EXPECT_NE(log("sensor_raises").find("traceback of SENSUB_RAISES:"), std::string::npos);

  EXPECT_EQ(runDeck("diff_raises", swappedOut("700", diff + python + "usrsub_fnc_name=\"DIFSUB_RAISES\"/>")),
            2);
  EXPECT_NE(stderrText().find("DIFSUB_RAISES in " + fixtures + " raised ValueError: no derivative past t=0.1 "
                              "(line 17) at t="),
            std::string::npos)
      << stderrText();

  EXPECT_EQ(runDeck("request_seven", swappedOut("600", request + python + "usrsub_fnc_name=\"REQSUB_SEVEN\"/>")),
            2);
  EXPECT_NE(stderrText().find("REQSUB_SEVEN in " + fixtures + " returned 7 values ([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, "
                              "0.0]); it must return a sequence of 8 numbers, [f1, f2, f3, f4, f5, f6, f7, f8], the "
                              "request's eight values"),
            std::string::npos)
      << stderrText();
}

// Libraries that are not installed (as Altair's msautoutils and mbdtire are not): `check` warns, once per library,
// and exits 0; `run` stops before integrating with one error line per library naming every element that needs it.
TEST_F(OutputSubroutineRun, MissingLibrariesAreSaidOncePerLibrary) {
  std::string deck = swappedOut("500", "<Sensor_Event id=\"500\" value=\"0.12\" compare=\"GE\" halt=\"TRUE\" "
                                    "type=\"USERSUB\" usrsub_dll_name=\"vendor_a\" "
                                    "usrsub_param_string=\"USER(12, 22)\"/>");
  replaceElementLine(deck, "600", "<Post_Request id=\"600\" type=\"USERSUB\" usrsub_dll_name=\"vendor_b\"/>");
  replaceElementLine(deck, "700",
                     "<Control_Diff id=\"700\" type=\"USERSUB\" usrsub_dll_name=\"vendor_a\" ic=\"0.01\"/>");
  replaceElementLine(deck, "101", "<Reference_Variable id=\"101\" type=\"USERSUB\" usrsub_dll_name=\"vendor_a\" "
                                  "usrsub_fnc_name=\"VARSUB\"/>");
  // MotionSolve's string subroutine, from a library that is not there either.
  deck.replace(deck.find("  </Model>"), 0,
               "    <Reference_String id=\"800\" usrsub_dll_name=\"vendor_b\" usrsub_fnc_name=\"STRING_READ\"/>\n");
  const std::string path = folder.write("vendor.xml", deck);
  const auto line = [&](const std::string& id) { return std::to_string(lineOf(deck, " id=\"" + id + "\"")); };
  // Said on the first element that needs the library, listing them in the deck's order.
  const auto libraryA = [&](const std::string& severity) {  // warnings say so; errors are the plain lines
    return path + ":" + line("101") + ":5: " + severity + "Reference_Variable id=101: usrsub_dll_name=\"vendor_a\": "
           "library \"vendor_a\" not found (tried ";
  };
  const std::string needsA = "; needed by 3 elements: Reference_Variable id=101 (line " + line("101") +
                             "), Control_Diff id=700 (line " + line("700") + "), Sensor_Event id=500 (line " +
                             line("500") + ")";
  const std::string needsB = "; needed by 2 elements: Post_Request id=600 (line " + line("600") +
                             "), Reference_String id=800 (line " + line("800") + ")";

  EXPECT_EQ(runLodestone({"lodestone", "check", path}), 0) << stderrText();
  const std::string checked = stderrText() + stdoutText();
  EXPECT_NE(checked.find(libraryA("warning: ")), std::string::npos) << checked;
  EXPECT_NE(checked.find(needsA), std::string::npos) << checked;
  EXPECT_NE(checked.find(needsB), std::string::npos) << checked;
  const auto mentions = [](const std::string& text, const std::string& what) {
    size_t count = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
    return count;
  };
  EXPECT_EQ(mentions(checked, "library \"vendor_a\" not found"), 1u) << checked;
  EXPECT_EQ(mentions(checked, "library \"vendor_b\" not found"), 1u) << checked;
  EXPECT_EQ(mentions(checked, ": warning: "), 2u) << checked;
  EXPECT_NE(checked.find(": OK (2 warnings)"), std::string::npos) << checked;

  EXPECT_EQ(run(path, "vendor"), 1);
  const std::string ran = stderrText();
  EXPECT_EQ(mentions(ran, "library \"vendor_a\" not found"), 1u) << ran;
  EXPECT_EQ(mentions(ran, "library \"vendor_b\" not found"), 1u) << ran;
  EXPECT_NE(ran.find(libraryA("")), std::string::npos) << ran;
  EXPECT_NE(ran.find("bad deck, not simulated (2 errors, 0 warnings)"), std::string::npos) << ran;
  EXPECT_NE(ran.find(needsA), std::string::npos) << ran;
  EXPECT_NE(ran.find(needsB), std::string::npos) << ran;
  EXPECT_FALSE(std::filesystem::exists(folder / "vendor/bodies.csv")) << "the run integrated";
}

// A contact's libraries (cnf_dll_name, cff_dll_name) that are not installed are said as the other elements' are:
// one line for the library, naming the element once though two of its attributes need it; a warning for `check`,
// an error for `run`, which then does not integrate.
TEST_F(OutputSubroutineRun, MissingContactLibraryIsSaidOnceAsTheOthersAre) {
  std::string deck = readFile(kUsersubModels + "sphere_usersub.xml");
  for (const std::string attribute : {"cnf_dll_name", "cff_dll_name"}) {
    const std::string from = attribute + "=\"usersub_examples\"";
    ASSERT_NE(deck.find(from), std::string::npos) << "sphere_usersub.xml changed: " << from;
    deck.replace(deck.find(from), from.size(), attribute + "=\"vendor_c\"");
  }
  const std::string path = folder.write("vendor_contact.xml", deck);
  const std::string contactLine = std::to_string(lineOf(deck, "<Force_Contact"));
  const auto said = [&](const std::string& severity) {
    return path + ":" + contactLine + ":5: " + severity + "Force_Contact id=300: cnf_dll_name=\"vendor_c\": library "
           "\"vendor_c\" not found (tried ";
  };
  const std::string needs = "; needed by 1 element: Force_Contact id=300 (line " + contactLine + ")";
  const auto mentions = [](const std::string& text, const std::string& what) {
    size_t count = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
    return count;
  };

  EXPECT_EQ(runLodestone({"lodestone", "check", path}), 0) << stderrText();
  const std::string checked = stderrText() + stdoutText();
  EXPECT_NE(checked.find(said("warning: ")), std::string::npos) << checked;
  EXPECT_NE(checked.find(needs), std::string::npos) << checked;
  EXPECT_EQ(mentions(checked, "library \"vendor_c\" not found"), 1u) << checked;

  EXPECT_EQ(run(path, "vendor"), 1);
  const std::string ran = stderrText();
  EXPECT_NE(ran.find(said("")), std::string::npos) << ran;
  EXPECT_NE(ran.find(needs), std::string::npos) << ran;
  EXPECT_EQ(mentions(ran, "library \"vendor_c\" not found"), 1u) << ran;
  EXPECT_FALSE(std::filesystem::exists(folder / "vendor/contacts.csv")) << "the run integrated";
}

}  // namespace
}  // namespace lodestone::cli
