// User subroutines end to end: the example library's IMPACT and COULOMB_ON reproduce the built-in laws, its
// CONTACTPOST writes the contact history with its first and last calls, c_sysfnc measures the model, a
// subroutine can stop the run cleanly, and a library that cannot be loaded is a bad deck.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "subroutine_runs.h"

namespace lodestone::cli {
namespace {

namespace fs = std::filesystem;
using lodestone::testing::ResultsTable;
using namespace testing;

const std::string& kModels = kUsersubModels;

class UserSubroutineRun : public SubroutineRun {};

TEST_F(UserSubroutineRun, CLibraryReproducesTheBuiltInImpactAndCoulombOn) {
  expectBuiltInResults(kModels + "sphere_usersub.xml");
}

// How smooth a CNFSUB's force is at an onset or a separation is not known: IDAS restarts at every located event of
// the example deck (two bounces), as it would at a dashpot's jump.
TEST_F(UserSubroutineRun, EveryLocatedEventOfASubroutineLawRestartsTheIntegrator) {
  ASSERT_EQ(run(kModels + "sphere_usersub.xml", "user"), 0) << stderrText();
  long located = 0, restarts = -1;
  for (const std::string& line : lodestone::testing::readLines(folder / "user/run.log")) {
    const bool event = line.find(" Contact onset at t=") != std::string::npos ||
                       line.find(" Contact separation at t=") != std::string::npos;
    if (event && line.find("not located") == std::string::npos) ++located;
    if (line.rfind(" Number of integrator restarts", 0) == 0) restarts = std::stol(line.substr(line.find('=') + 1));
  }
  EXPECT_GE(located, 4);
  EXPECT_EQ(restarts, located);
}

TEST_F(UserSubroutineRun, ContactPostWritesEveryContactingOutputAndClosesOnTheLastCall) {
  ASSERT_EQ(run(kModels + "sphere_usersub.xml", "user"), 0) << stderrText();
  const ResultsTable contacts(folder / "user/contacts.csv");
  std::vector<double> contactTimes, contactDepths;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    if (contacts.at(row, "in_contact") == 1) {
      contactTimes.push_back(contacts.at(row, "time"));
      contactDepths.push_back(contacts.at(row, "penetration"));
    }
  }
  ASSERT_GT(contactTimes.size(), 10u);
  std::ifstream history(folder / "contact_history_300.csv");
  ASSERT_TRUE(history) << "CONTACTPOST did not write its file";
  std::string line;
  std::getline(history, line);
  EXPECT_EQ(line, "time,i_graphic,j_graphic,point,penetration,normal_force_x,normal_force_y,normal_force_z")
      << "the header is written on the first call (iflag)";
  std::vector<std::string> rows;
  while (std::getline(history, line)) rows.push_back(line);
  ASSERT_EQ(rows.size(), contactTimes.size() + 1);
  EXPECT_EQ(rows.back(), "# end at t=0.6") << "the last call (endflg) comes after the last output";
  for (size_t k = 0; k < contactTimes.size(); ++k) {
    std::stringstream cells(rows[k]);
    std::string time, iGraphic, jGraphic, point, depth;
    std::getline(cells, time, ',');
    std::getline(cells, iGraphic, ',');
    std::getline(cells, jGraphic, ',');
    std::getline(cells, point, ',');
    std::getline(cells, depth, ',');
    EXPECT_NEAR(std::stod(time), contactTimes[k], 1e-12);
    EXPECT_EQ(iGraphic + "," + jGraphic + "," + point, "200,100,0");
    // c_get_contact_post("PD") is the penetration contacts.csv reports (a sphere has one point).
    EXPECT_NEAR(std::stod(depth), contactDepths[k], 1e-12 + 1e-9 * contactDepths[k]);
  }
}

TEST_F(UserSubroutineRun, SysfncMeasuresTheModelForTheSubroutine) {
  // The gap from c_sysfnc("DZ") and its rate from c_sysfnc("VZ") of the ball's centre marker, instead of the
  // arguments. The two routes round differently, so the runs take slightly different steps and drift apart by
  // what the tolerance allows (integr_tol 1e-7; the ball's later chatter amplifies it): compared over the
  // first bounces, the penetration agrees to 1 µm (1% of its 0.1 mm peak) and so does the normal force to 1%.
  // A wrong measure (another axis, sign or marker) would be off by the whole penetration.
  const std::string deck = folder.write("sysfnc.xml", fixtureDeck("CNFSUB_SYSFNC", "1e7, 1.5, 20., 1e-4, 20, 0.02"));
  ASSERT_EQ(run(deck, "sysfnc"), 0) << stderrText();
  ASSERT_EQ(run(kModels + "sphere_builtin.xml", "builtin"), 0) << stderrText();
  const ResultsTable measured(folder / "sysfnc/contacts.csv"), builtIn(folder / "builtin/contacts.csv");
  ASSERT_EQ(measured.rowCount(), builtIn.rowCount());
  int contactRows = 0;
  for (size_t row = 0; row < builtIn.rowCount() && builtIn.at(row, "time") <= 0.3; ++row) {
    EXPECT_NEAR(measured.at(row, "penetration"), builtIn.at(row, "penetration"), 1e-6) << "t=" << builtIn.at(row, "time");
    EXPECT_NEAR(measured.at(row, "fn"), builtIn.at(row, "fn"), 0.01 * builtIn.at(row, "fn") + 1e-9);
    contactRows += builtIn.at(row, "in_contact") == 1 ? 1 : 0;
  }
  EXPECT_GE(contactRows, 1);
}

TEST_F(UserSubroutineRun, ErrmesWithStopEndsTheRunWithExit2AndKeepsTheResults) {
  // The subroutine asks to stop at its first call after t = 0.02: the ball's first touch, at about 0.045 s.
  const std::string text = fixtureDeck("CNFSUB_STOP", "1e7, 1.5, 20., 1e-4, 0.02");
  const std::string deck = folder.write("stop.xml", text);
  EXPECT_EQ(run(deck, "stop"), 2);
  const std::string log = readFile(folder / "stop/run.log");
  EXPECT_NE(log.find(elementName(deck, text) + ": CNFSUB_STOP in "), std::string::npos) << log;
  EXPECT_NE(log.find("asked to stop (c_errmes): the test asks to stop here"), std::string::npos) << log;
  const ResultsTable bodies(folder / "stop/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 5u);
  const double last = bodies.at(bodies.rowCount() - 1, "time");
  EXPECT_GE(last, 0.04);
  EXPECT_LT(last, 0.05) << "the run stops at the call that asked";
}

TEST_F(UserSubroutineRun, AUtilityCalledWronglyIsReportedOnceAndTheRunGoesOn) {
  const std::string deck = folder.write("bad_marker.xml", fixtureDeck("CNFSUB_BAD_MARKER", "1e7, 1.5, 20., 1e-4"));
  EXPECT_EQ(run(deck, "bad"), 0) << stderrText();
  const std::string log = readFile(folder / "bad/run.log");
  const std::string message = "c_sysfnc called from CNFSUB_BAD_MARKER: no Reference_Marker id=987654 in the model";
  const size_t first = log.find(message);
  EXPECT_NE(first, std::string::npos) << log;
  EXPECT_EQ(log.find(message, first + 1), std::string::npos) << "reported once";
}

TEST_F(UserSubroutineRun, SetUpAndDifferencingCallsCarryTheirFlags) {
  const std::string deck = folder.write("flags.xml", fixtureDeck("CNFSUB_FLAGS", "1e7, 1.5, 20., 1e-4"));
  ASSERT_EQ(run(deck, "flags"), 0) << stderrText();
  const std::string log = readFile(folder / "flags/run.log");
  const size_t setUp = log.find("CNFSUB_FLAGS (c_errmes, id=300): set-up call (iflag)");
  const size_t differencing = log.find("CNFSUB_FLAGS (c_errmes, id=300): differencing call (dflag)");
  EXPECT_NE(setUp, std::string::npos) << log;
  EXPECT_NE(differencing, std::string::npos) << log;
  EXPECT_LT(setUp, differencing) << "the set-up call comes first, at the start";
}

TEST_F(UserSubroutineRun, MissingLibraryIsABadDeckNamingTheElementAndItsLine) {
  std::string deck = readFile(kModels + "sphere_usersub.xml");
  const std::string from = "cnf_dll_name=\"usersub_examples\"";
  deck.replace(deck.find(from), from.size(), "cnf_dll_name=\"no_such_library\"");
  const std::string path = folder.write("missing.xml", deck);
  EXPECT_EQ(run(path, "missing"), 1);
  EXPECT_NE(stderrText().find(elementError(path, deck) + "cnf_dll_name=\"no_such_library\": library "
                                     "\"no_such_library\" not found"),
            std::string::npos)
      << stderrText();
}

// run.log says which user code the run executes: each element's subroutines, with the file each came from.
TEST_F(UserSubroutineRun, RunLogListsTheUserCodeOfEachElementWithItsFile) {
  const std::string deck = kModels + "sphere_usersub.xml";
  ASSERT_EQ(run(deck, "user"), 0) << stderrText();
  const std::string log = readFile(folder / "user/run.log");
  const std::string library = fs::canonical(std::string(LODESTONE_BINARY_DIR) + "/lib/usersub_examples.so").string();
  const std::string element = " " + elementName(deck, readFile(deck)) + ": ";
  EXPECT_NE(log.find(element + "normal force CNFSUB from library " + library + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find(element + "friction force CFFSUB from library " + library + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find(element + "CONTACTPOST CONTACTPOST from library " + library + "\n"), std::string::npos) << log;
}

// check looks at a library without loading it (which would run its constructor); run loads it, as MotionSolve does.
TEST_F(UserSubroutineRun, CheckReadsALibrarysExportsWithoutLoadingItAndRunLoadsIt) {
  std::string text = readFile(kModels + "sphere_usersub.xml");
  const std::string from = "cnf_dll_name=\"usersub_examples\"";
  text.replace(text.find(from), from.size(), "cnf_dll_name=\"usersub_constructor\"");
  const std::string deck = folder.write("constructor.xml", text);
  EXPECT_EQ(runLodestone({"lodestone", "check", deck}), 0) << stderrText();
  EXPECT_NE(stdoutText().find(deck + ": OK"), std::string::npos) << stdoutText();
  EXPECT_FALSE(fs::exists(folder / "constructor_ran")) << "check ran the library's constructor";

  // A function the library does not export is still a bad deck, found in its symbol table.
  std::string misspelt = text;
  const std::string library = "cnf_dll_name=\"usersub_constructor\"";
  misspelt.replace(misspelt.find(library), library.size(), library + " cnf_fnc_name=\"CNFSUB_MISSING\"");
  EXPECT_EQ(runLodestone({"lodestone", "check", folder.write("misspelt.xml", misspelt)}), 1);
  EXPECT_NE(stderrText().find("cnf_fnc_name=\"CNFSUB_MISSING\": no function CNFSUB_MISSING in "), std::string::npos)
      << stderrText();
  EXPECT_FALSE(fs::exists(folder / "constructor_ran"));

  EXPECT_EQ(run(deck, "run"), 0) << stderrText();
  EXPECT_TRUE(fs::exists(folder / "constructor_ran")) << "run loads the library";
}

TEST_F(UserSubroutineRun, AStopInTheSetUpCallStopsTheRunAtItsStart) {
  // The set-up call (iflag) comes at t = 0, past the stop time -1: the run stops there, before any step.
  const std::string text = fixtureDeck("CNFSUB_STOP", "1e7, 1.5, 20., 1e-4, -1");
  const std::string deck = folder.write("setup.xml", text);
  EXPECT_EQ(run(deck, "setup"), 2);
  const std::string log = readFile(folder / "setup/run.log");
  EXPECT_NE(log.find("\nSimulation FAILED at t=0.000000E+00: " + elementName(deck, text) + ": CNFSUB_STOP in "),
            std::string::npos)
      << log;
}

}  // namespace
}  // namespace lodestone::cli
