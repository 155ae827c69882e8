// DebugOutput end to end: the trace's line shape read back, the bouncing ball's trace summarised by
// `lodestone debug-summary` in agreement with its contacts.csv, and a deck made to fail naming its Force_Contact.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "solver/cli/debug_summary.h"
#include "subroutine_runs.h"
#include "support/text_files.h"

namespace lodestone::cli {
namespace {

using namespace testing;

TEST(DebugTraceLine, ReadsLevelTimeTopicLabelAndFields) {
  const std::optional<TraceLine> line = parseTraceLine(
      "[DEBUG][t=1.427843000e-01][contact][pair] element = Force_Contact/300, i = 200, j = 100, fn = 2.5e+03");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->level, "DEBUG");
  EXPECT_EQ(line->time, 1.427843e-01);
  EXPECT_EQ(line->topic, "contact");
  EXPECT_EQ(line->label, "pair");
  EXPECT_EQ(line->fields.at("element"), "Force_Contact/300");
  EXPECT_EQ(line->fields.at("fn"), "2.5e+03");
  EXPECT_TRUE(parseTraceLine("[INFO][t=0][step][end-step]"));
  EXPECT_FALSE(parseTraceLine("Time=1.000E-01; Order=2"));
  EXPECT_FALSE(parseTraceLine("[INFO][time=0][step][end-step] h = 1"));
  EXPECT_FALSE(parseTraceLine("[INFO][t=0][step][end-step] h is 1"));
}

TEST(DebugTraceSummary, CountsImpactsPenetrationForcesSlipAndCollapses) {
  const std::vector<std::string> trace = {
      "[INFO][t=1.0e-01][step][end-step] step = 1, h = 1.0e-02",
      "[DEBUG][t=1.0e-01][contact][pair] element = Force_Contact/3, i = 20, j = 10, state = close, penetration = 0, "
      "slip = 0, fn = 0, ft = 0",
      "[INFO][t=1.5e-01][contact][onset] element = Force_Contact/3, i = 20, j = 10, located = 1",
      "[INFO][t=1.5e-01][step][end-step] step = 2, h = 1.0e-04",
      "[DEBUG][t=1.5e-01][contact][pair] element = Force_Contact/3, i = 20, j = 10, state = touching, "
      "penetration = 2.0e-03, slip = 1.0, fn = 50, ft = 5",
      "[DEBUG][t=1.6e-01][contact][pair] element = Force_Contact/3, i = 20, j = 10, state = touching, "
      "penetration = 3.0e-03, slip = 0.5, fn = 70, ft = 4",
      "[DEBUG][t=1.7e-01][contact][pair] element = Force_Contact/3, i = 20, j = 10, state = touching, "
      "penetration = 1.0e-03, slip = 0.001, fn = 20, ft = 1",
      "[INFO][t=1.8e-01][contact][separation] element = Force_Contact/3, i = 20, j = 10, located = 1",
      "[INFO][t=2.0e-01][contact][onset] element = Force_Contact/3, i = 20, j = 10, located = 1",
      "[WARNING][t=2.0e-01][step][struggling] retries = 3, h = 1.0e-05, worst = Body_Rigid/2",
      "not a trace line",
  };
  const TraceSummary summary = summariseTrace(trace);
  ASSERT_EQ(summary.contacts.size(), 1u);
  const ContactSummary& contact = summary.contacts[0];
  EXPECT_EQ(contact.element, "Force_Contact/3");
  EXPECT_EQ(contact.iGraphic, 20);
  EXPECT_EQ(contact.jGraphic, 10);
  EXPECT_EQ(contact.firstTouch, 0.15);
  EXPECT_EQ(contact.impacts, 2);
  EXPECT_EQ(contact.maxPenetration, 3.0e-3);
  EXPECT_EQ(contact.maxPenetrationTime, 0.16);
  EXPECT_EQ(contact.peakNormalForce, 70);
  EXPECT_EQ(contact.peakFrictionForce, 5);
  // Slipping (above 1 % of the peak 1.0) while in contact at both ends of a step: 0.15 to 0.16 only (the step
  // before begins apart; the sample at 0.17 slips at 0.001).
  EXPECT_NEAR(contact.slipTime, 0.01, 1e-12);
  EXPECT_EQ(summary.steps, 2);
  EXPECT_EQ(summary.smallestStep, 1e-4);
  ASSERT_EQ(summary.collapses.size(), 1u);
  EXPECT_EQ(summary.collapses[0].time, 0.15);
  EXPECT_EQ(summary.struggles, 1);
  EXPECT_EQ(summary.unreadLines, 1);
  const std::string text = formatSummary(summary, "debug.log");
  EXPECT_NE(text.find("Force_Contact/3"), std::string::npos) << text;
  EXPECT_NE(text.find("struggling steps: 1"), std::string::npos) << text;
}

class DebugOutputRun : public SubroutineRun {};

// The bouncing ball of models/, with DebugOutput and fine outputs around its first two impacts (at 0.1428 s and
// 0.4010 s, each lasting 66 µs), so that contacts.csv sees every impact and its deepest point to within the output
// step. The trace's summary counts the same impacts and the same largest penetration (within 1 %: the trace samples
// IDAS's steps, contacts.csv every 4 µs).
TEST_F(DebugOutputRun, SummaryOfTheBouncingBallsTraceAgreesWithContactsCsv) {
  std::string deck = readFile(std::string(LODESTONE_SOURCE_DIR) + "/models/bouncing_ball.xml");
  const size_t model = deck.find("<Model>");
  ASSERT_NE(model, std::string::npos);
  deck.insert(model + 7, "\n    <DebugOutput switch_on=\"TRUE\"/>");
  const size_t commands = deck.find("<Command>");
  const size_t commandsEnd = deck.find("</Command>");
  deck.replace(commands, commandsEnd - commands,
               "<Command>\n"
               "<Simulate analysis_type=\"Transient\" end_time=\"0.142\" print_interval=\"0.002\"/>\n"
               "<Simulate analysis_type=\"Transient\" end_time=\"0.1435\" print_interval=\"4e-6\"/>\n"
               "<Simulate analysis_type=\"Transient\" end_time=\"0.4005\" print_interval=\"0.002\"/>\n"
               "<Simulate analysis_type=\"Transient\" end_time=\"0.4017\" print_interval=\"4e-6\"/>\n"
               "<Simulate analysis_type=\"Transient\" end_time=\"0.45\" print_interval=\"0.002\"/>\n");
  const std::string path = folder.write("ball.xml", deck);
  ASSERT_EQ(run(path, "ball"), 0) << stderrText();

  // contacts.csv: impacts are rises of in_contact; the largest penetration over all rows.
  const lodestone::testing::ResultsTable contacts(folder / "ball/contacts.csv");
  int impacts = 0;
  double deepest = 0;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    if (contacts.at(row, "in_contact") == 1 && (row == 0 || contacts.at(row - 1, "in_contact") == 0)) ++impacts;
    deepest = std::max(deepest, contacts.at(row, "penetration"));
  }
  ASSERT_EQ(impacts, 2);

  ASSERT_EQ(runLodestone({"lodestone", "debug-summary", folder / "ball/debug.log"}), 0) << stderrText();
  const std::string text = stdoutText();
  const TraceSummary summary = summariseTrace(lodestone::testing::readLines(folder / "ball/debug.log"));
  ASSERT_EQ(summary.contacts.size(), 1u);
  const ContactSummary& ball = summary.contacts[0];
  EXPECT_EQ(ball.element, "Force_Contact/300");
  EXPECT_EQ(ball.impacts, impacts);
  EXPECT_NEAR(ball.maxPenetration, deepest, 0.01 * deepest);
  EXPECT_NEAR(*ball.firstTouch, 0.14278, 1e-5);
  EXPECT_EQ(summary.unreadLines, 0);
  // The command's table says the same.
  EXPECT_NE(text.find("Force_Contact/300"), std::string::npos) << text;
  EXPECT_NE(text.find("        2 "), std::string::npos) << text;
  RecordProperty("trace_max_penetration", std::to_string(ball.maxPenetration));
  RecordProperty("csv_max_penetration", std::to_string(deepest));
}

// Subroutine calls are counted and timed per step; screen_output echoes the trace on standard output.
TEST_F(DebugOutputRun, SubroutineCallsAndTheirCostAreTracedAndEchoed) {
  std::string deck = readFile(kUsersubModels + "sphere_usersub.xml");
  const size_t model = deck.find("<Model>");
  deck.insert(model + 7, "\n    <DebugOutput screen_output=\"TRUE\"/>");
  // The library is found beside the deck or in build/lib: the deck moves, so name the library by its path.
  const std::string library = std::string(LODESTONE_BINARY_DIR) + "/lib/usersub_examples.so";
  for (size_t at = deck.find("\"usersub_examples\""); at != std::string::npos; at = deck.find("\"usersub_examples\"")) {
    deck.replace(at, 18, "\"" + library + "\"");
  }
  const std::string path = folder.write("usersub.xml", deck);
  ASSERT_EQ(run(path, "usersub"), 0) << stderrText();
  const std::vector<std::string> trace = lodestone::testing::readLines(folder / "usersub/debug.log");
  long cnfsubCalls = 0, cffsubCalls = 0;
  for (const std::string& text : trace) {
    const std::optional<TraceLine> line = parseTraceLine(text);
    ASSERT_TRUE(line) << text;
    if (line->topic != "usersub") continue;
    EXPECT_EQ(line->label, "calls");
    EXPECT_EQ(line->fields.at("element"), "Force_Contact/300");
    EXPECT_GE(std::stod(line->fields.at("seconds")), 0.0);
    (line->fields.at("function") == "CNFSUB" ? cnfsubCalls : cffsubCalls) += std::stol(line->fields.at("calls"));
  }
  EXPECT_GT(cnfsubCalls, 100);
  EXPECT_GT(cffsubCalls, 100);
  EXPECT_NE(stdoutText().find("[INFO][t="), std::string::npos) << "screen_output echoes the trace";
}

// An absurd contact stiffness with a tight h_min: the run fails (exit 2), keeps the results up to the failure, and
// both logs name the Force_Contact and its line.
TEST_F(DebugOutputRun, AFailingContactIsNamedWithItsLine) {
  std::string deck = readFile(std::string(LODESTONE_SOURCE_DIR) + "/models/bouncing_ball.xml");
  deck.replace(deck.find("stiffness=\"463337.\""), 19, "stiffness=\"1e15\"");
  deck.replace(deck.find("<Param_Transient integr_tol=\"1e-6\" h_max=\"1e-3\"/>"), 49,
               "<Param_Transient integr_tol=\"1e-6\" h_max=\"1e-3\" h_min=\"1e-6\"/> <DebugOutput/>");
  const std::string path = folder.write("absurd.xml", deck);
  EXPECT_EQ(run(path, "absurd"), 2);
  const std::string contactName =
      "Force_Contact id=300 (" + path + ":" + std::to_string(lineOf(deck, "<Force_Contact")) + ":5)";
  EXPECT_NE(stderrText().find("most likely at fault: " + contactName), std::string::npos) << stderrText();
  const std::string log = readFile(folder / "absurd/run.log");
  EXPECT_NE(log.find(" ERROR: " + contactName + " pushes hardest on Body_Rigid id=2"), std::string::npos) << log;
  EXPECT_NE(log.find("h_min = 1.000E-06 is too long to follow it: lower h_min, or lower the stiffness."),
            std::string::npos)
      << log;
  const std::string trace = readFile(folder / "absurd/debug.log");
  EXPECT_NE(trace.find("[failure][integrator] flag = IDA_"), std::string::npos);
  EXPECT_NE(trace.find("[failure][advice] text = " + contactName), std::string::npos) << trace.substr(0, 2000);
  // Results up to the failure are kept: outputs every 2 ms until just before the first impact.
  const lodestone::testing::ResultsTable bodies(folder / "absurd/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 50u);
  EXPECT_GT(bodies.at(bodies.rowCount() - 1, "time"), 0.14);
}

}  // namespace
}  // namespace lodestone::cli
