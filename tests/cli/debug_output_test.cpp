// DebugOutput end to end: the trace's line shape read back, the bouncing ball's trace summarised by
// `lodestone debug-summary` (text, CSV, JSON) in agreement with its contacts.csv and impacts.csv, a deck made to fail
// naming its Force_Contact in run.log and in the summary alike, and the filters writing only the lines asked for.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "solver/cli/debug_summary.h"
#include "solver/output/number_format.h"
#include "subroutine_runs.h"
#include "support/text_files.h"

namespace lodestone::cli {
namespace {

using namespace testing;

TEST(DebugTraceLine, ReadsLevelTimeTopicLabelAndFields) {
  TraceLine line;
  ASSERT_TRUE(parseTraceLine(
      "[DEBUG][t=1.427843000E-01][contact][pair] element = Force_Contact/300, i = 200, j = 100, fn = 2.5e+03", line));
  EXPECT_EQ(line.level, "DEBUG");
  EXPECT_EQ(line.time, 1.427843e-01);
  EXPECT_EQ(line.topic, "contact");
  EXPECT_EQ(line.label, "pair");
  EXPECT_EQ(line.field("element"), "Force_Contact/300");
  EXPECT_EQ(line.field("fn"), "2.5e+03");
  EXPECT_EQ(line.field("ft"), "");
  EXPECT_TRUE(parseTraceLine("[INFO][t=0][step][end-step]", line));
  EXPECT_TRUE(line.fields.empty()) << "a line's fields are its own, not the previous line's";
  EXPECT_FALSE(parseTraceLine("Time=1.000E-01; Order=2", line));
  EXPECT_FALSE(parseTraceLine("[INFO][time=0][step][end-step] h = 1", line));
  EXPECT_FALSE(parseTraceLine("[INFO][t=0x][step][end-step] h = 1", line));
  EXPECT_FALSE(parseTraceLine("[INFO][t=0][step][end-step] h is 1", line));
}

TraceSummary summariseLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  std::istringstream stream(text);
  return summariseTrace(stream);
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
  const TraceSummary summary = summariseLines(trace);
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
  EXPECT_EQ(contact.peakNormalForceTime, 0.16);
  EXPECT_EQ(contact.peakFrictionForce, 5);
  // The trapezoidal rule from the onset (no force) through the touching steps to the separation (no force):
  // (0 + 50)/2·0 + (50 + 70)/2·0.01 + (70 + 20)/2·0.01 + (20 + 0)/2·0.01.
  EXPECT_NEAR(contact.impulse, 1.15, 1e-12);
  EXPECT_EQ(contact.blamed, 0);
  EXPECT_FALSE(contact.firstTouchInFailedStep);
  // Slipping (above 1 % of the peak 1.0) while in contact at both ends of a step: 0.15 to 0.16 only (the step
  // before begins apart; the sample at 0.17 slips at 0.001).
  EXPECT_NEAR(contact.slipTime, 0.01, 1e-12);
  EXPECT_EQ(summary.steps, 2);
  EXPECT_EQ(summary.smallestStep, 1e-4);
  ASSERT_EQ(summary.collapses, 1);
  ASSERT_EQ(summary.firstCollapses.size(), 1u);
  EXPECT_EQ(summary.firstCollapses[0].time, 0.15);
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
  std::ifstream trace(folder / "ball/debug.log");
  const TraceSummary summary = summariseTrace(trace);
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

  // --csv agrees with impacts.csv: the same accepted steps, read back from the trace's ten significant digits.
  ASSERT_EQ(runLodestone({"lodestone", "debug-summary", "--csv", folder / "ball/debug.log"}), 0) << stderrText();
  const lodestone::testing::ResultsTable pairs(folder / "stdout.txt");
  const lodestone::testing::ResultsTable episodes(folder / "ball/impacts.csv");
  ASSERT_EQ(pairs.rowCount(), 1u);
  ASSERT_EQ(episodes.rowCount(), 2u);
  EXPECT_EQ(pairs.at(0, "id"), 300);
  EXPECT_EQ(pairs.at(0, "i_graphic"), 200);
  EXPECT_EQ(pairs.at(0, "j_graphic"), 100);
  EXPECT_EQ(pairs.at(0, "impacts"), 2);
  EXPECT_NEAR(pairs.at(0, "first_touch"), episodes.at(0, "onset_time"), 1e-9 * episodes.at(0, "onset_time"));
  const size_t harder = episodes.at(0, "peak_fn") > episodes.at(1, "peak_fn") ? 0 : 1;
  EXPECT_NEAR(pairs.at(0, "peak_fn"), episodes.at(harder, "peak_fn"), 1e-9 * episodes.at(harder, "peak_fn"));
  EXPECT_NEAR(pairs.at(0, "peak_fn_time"), episodes.at(harder, "peak_time"), 1e-9);
  const double maxPenetration = std::max(episodes.at(0, "max_penetration"), episodes.at(1, "max_penetration"));
  EXPECT_NEAR(pairs.at(0, "max_penetration"), maxPenetration, 1e-9 * maxPenetration);
  // The trace's times have ten significant digits (±5e-11 s here), so each step's length is off by up to 1e-10 s and
  // the trapezoidal sum by up to 1e-10 s times the sum of the forces it adds up.
  double forceSum = 0;
  for (const std::string& text : lodestone::testing::readLines(folder / "ball/debug.log")) {
    TraceLine line;
    if (parseTraceLine(text, line) && line.label == "pair" && line.field("state") == "touching") {
      forceSum += std::stod(std::string(line.field("fn")));
    }
  }
  const double impulse = episodes.at(0, "impulse") + episodes.at(1, "impulse");
  EXPECT_NEAR(pairs.at(0, "impulse"), impulse, 1e-10 * forceSum);
  RecordProperty("impulse_difference", std::to_string(pairs.at(0, "impulse") - impulse));
  RecordProperty("impulse_rounding_bound", std::to_string(1e-10 * forceSum));
  EXPECT_EQ(pairs.at(0, "blamed"), 0);

  // --json holds the same figures, and the steps.
  ASSERT_EQ(runLodestone({"lodestone", "debug-summary", folder / "ball/debug.log", "--json"}), 0) << stderrText();
  const nlohmann::json json = nlohmann::json::parse(stdoutText());
  ASSERT_EQ(json.at("contacts").size(), 1u);
  const nlohmann::json& pair = json.at("contacts").at(0);
  EXPECT_EQ(pair.at("element"), "Force_Contact/300");
  EXPECT_EQ(pair.at("impacts"), 2);
  EXPECT_EQ(pair.at("first_touch").get<double>(), pairs.at(0, "first_touch"));
  EXPECT_EQ(pair.at("impulse").get<double>(), pairs.at(0, "impulse"));
  EXPECT_EQ(json.at("steps").at("count").get<long>(), summary.steps);
  EXPECT_EQ(json.at("failures").size(), 0u);
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
    TraceLine line;
    ASSERT_TRUE(parseTraceLine(text, line)) << text;
    if (line.topic != "usersub") continue;
    EXPECT_EQ(line.label, "calls");
    EXPECT_EQ(line.field("element"), "Force_Contact/300");
    EXPECT_GE(std::stod(std::string(line.field("seconds"))), 0.0);
    (line.field("function") == "CNFSUB" ? cnfsubCalls : cffsubCalls) += std::stol(std::string(line.field("calls")));
  }
  EXPECT_GT(cnfsubCalls, 100);
  EXPECT_GT(cffsubCalls, 100);
  EXPECT_NE(stdoutText().find("[INFO][t="), std::string::npos) << "screen_output echoes the trace";
}

// An absurd contact stiffness with a tight h_min: the run fails (exit 2), keeps the results up to the failure, and
// both logs name the Force_Contact and its line.
// Where Newton fails to converge, the step topic names the state it could not settle (the largest entry of its last
// update against the error weights): a body sent at 1 m/s through a force that rises by 100 kN over 1 µm of its
// travel, beside a free body with nothing on it. Every failure names the first body's velocity along its travel,
// once: 9 steps have failures in IDAS's count, one of them only a stale matrix's that a fresh one mended, and 8 solves
// failed as a whole (before, that step repeated the last line).
TEST_F(DebugOutputRun, ANewtonFailureNamesTheStateNewtonCouldNotSettle) {
  const std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n<DebugOutput topics=\"step\"/>\n"
      "<Param_Unit force_unit=\"NEWTON\" mass_unit=\"KILOGRAM\" length_unit=\"METER\" time_unit=\"SECOND\"/>\n"
      "<Param_Transient integr_tol=\"1e-6\" h_max=\"1e-3\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"1e-3\" inertia_yy=\"1e-3\" inertia_zz=\"1e-3\" "
      "v_ic_x=\"1\"/>\n<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"-0.01\"/>\n"
      "<Body_Rigid id=\"3\" mass=\"1\" cg_id=\"30\" inertia_xx=\"1e-3\" inertia_yy=\"1e-3\" inertia_zz=\"1e-3\" "
      "v_ic_y=\"1\"/>\n<Reference_Marker id=\"30\" body_id=\"3\" pos_y=\"0.5\"/>\n"
      "<Force_Scalar_TwoBody id=\"6\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
      "val_expression=\"STEP(DX(20,10), -0.0005, 0, -0.000499, 1e5) - STEP(DX(20,10), 0.002, 0, 0.002001, 1e5)\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.02\" print_interval=\"0.001\"/>"
      "</Command></MultiBodySystem>\n";
  const std::string path = folder.write("steep.xml", deck);
  ASSERT_EQ(run(path, "steep"), 0) << stderrText();
  int failures = 0;
  std::string previous;
  for (const std::string& line : lodestone::testing::readLines(folder / "steep/debug.log")) {
    if (line.find("[step][newton-failure]") == std::string::npos) continue;
    ++failures;
    EXPECT_NE(line.find("variable = Body_Rigid id=2 (" + path + ":8:1); CG velocity vx, weighted-correction = "),
              std::string::npos)
        << line;
    // Each line is a failure of its own: a stale record (after a step whose stale matrix failed and a fresh one
    // mended it, which IDAS also counts) would repeat the last line's correction to the last digit.
    const std::string correction = line.substr(line.find("weighted-correction = "));
    EXPECT_NE(correction, previous) << line;
    previous = correction;
  }
  EXPECT_GT(failures, 0);
  ::testing::Test::RecordProperty("newton_failures_named", failures);
}

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
  // The summary blames the same pair, touching in the failed step with run.log's penetration, though no accepted
  // step saw it touch.
  ASSERT_EQ(runLodestone({"lodestone", "debug-summary", "--json", folder / "absurd/debug.log"}), 0) << stderrText();
  const nlohmann::json json = nlohmann::json::parse(stdoutText());
  ASSERT_EQ(json.at("contacts").size(), 1u);
  const nlohmann::json& pair = json.at("contacts").at(0);
  EXPECT_EQ(pair.at("element"), "Force_Contact/300");
  EXPECT_EQ(pair.at("blamed"), 1);
  EXPECT_EQ(pair.at("impacts"), 0);
  EXPECT_TRUE(pair.at("first_touch_in_failed_step").get<bool>());
  EXPECT_NEAR(pair.at("first_touch").get<double>(), 0.142784, 1e-6);
  const nlohmann::json& failures = json.at("failures");
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures.at(0).at("label"), "integrator");
  const nlohmann::json& blamed = failures.at(1);
  EXPECT_EQ(blamed.at("label"), "contact");
  EXPECT_EQ(blamed.at("fields").at("seen"), "attempted-step");
  const double penetration = std::stod(blamed.at("fields").at("penetration").get<std::string>());
  EXPECT_NE(log.find("penetration " + lodestone::scientific(penetration, 3) + ", normal force "), std::string::npos)
      << log;
  ASSERT_EQ(runLodestone({"lodestone", "debug-summary", folder / "absurd/debug.log"}), 0) << stderrText();
  EXPECT_NE(stdoutText().find("  * touching only in the step that failed"), std::string::npos) << stdoutText();

  // Results up to the failure are kept: outputs every 2 ms until just before the first impact.
  const lodestone::testing::ResultsTable bodies(folder / "absurd/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 50u);
  EXPECT_GT(bodies.at(bodies.rowCount() - 1, "time"), 0.14);
}

// The bouncing ball beside a second ball dropped from half the height (Force_Contact 301, first impact at 0.101 s):
// a DebugOutput with topics="contact", a time window around the first ball's first impact and contact_ids="300"
// writes exactly the lines of the unfiltered trace that have that topic, that time and that contact, no others.
TEST_F(DebugOutputRun, FiltersWriteOnlyTheLinesOfTheirTopicsTimeWindowAndContacts) {
  std::string deck = readFile(std::string(LODESTONE_SOURCE_DIR) + "/models/bouncing_ball.xml");
  deck.insert(deck.find("  </Model>"),
              "    <Reference_Marker id=\"30\" label=\"Second ball CG\" body_id=\"3\" pos_x=\"50.\" pos_z=\"60.\"/>\n"
              "    <Body_Rigid id=\"3\" cg_id=\"30\" im_id=\"30\" mass=\"0.032882\" inertia_xx=\"1.3153\" "
              "inertia_yy=\"1.3153\" inertia_zz=\"1.3153\"/>\n"
              "    <Post_Graphic id=\"201\" type=\"Sphere\" center_marker_id=\"30\" radius=\"10.\"/>\n"
              "    <Force_Contact id=\"301\" i_graphics_id=\"201\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" "
              "stiffness=\"463337.\" exponent=\"1.5\" damping=\"0.1\" dmax=\"0.005\" cff_type=\"COULOMB_OFF\"/>\n"
              "    DEBUG_OUTPUT\n");
  const size_t commands = deck.find("<Command>");
  deck.replace(commands, deck.find("</Command>") - commands,
               "<Command>\n<Simulate analysis_type=\"Transient\" end_time=\"0.2\" print_interval=\"0.002\"/>\n");
  const auto withDebugOutput = [&](const std::string& element) {
    std::string text = deck;
    return text.replace(text.find("DEBUG_OUTPUT"), 12, element);
  };
  ASSERT_EQ(run(folder.write("all.xml", withDebugOutput("<DebugOutput/>")), "all"), 0) << stderrText();
  ASSERT_EQ(run(folder.write("some.xml", withDebugOutput("<DebugOutput topics=\"contact\" start_time=\"0.14\" "
                                                         "end_time=\"0.15\" contact_ids=\"300\"/>")),
                "some"),
            0)
      << stderrText();

  std::vector<std::string> expected;
  std::set<std::string> topicsLeftOut, contactsLeftOut;
  for (const std::string& text : lodestone::testing::readLines(folder / "all/debug.log")) {
    TraceLine line;
    ASSERT_TRUE(parseTraceLine(text, line)) << text;
    const std::string_view element = line.field("element");
    const bool wanted = line.topic == "contact" && line.time >= 0.14 && line.time <= 0.15 &&
                        (element.empty() || element == "Force_Contact/300");
    if (wanted) expected.push_back(text);
    if (line.topic != "contact") topicsLeftOut.emplace(line.topic);
    if (!element.empty() && element != "Force_Contact/300") contactsLeftOut.emplace(element);
  }
  EXPECT_EQ(topicsLeftOut, (std::set<std::string>{"step"})) << "the unfiltered trace has more than contact lines";
  EXPECT_EQ(contactsLeftOut, std::set<std::string>{"Force_Contact/301"});
  const std::vector<std::string> written = lodestone::testing::readLines(folder / "some/debug.log");
  EXPECT_EQ(written, expected);
  // The window holds the first ball's first impact, onset to separation, and its steps.
  ASSERT_GT(written.size(), 10u);
  EXPECT_TRUE(lodestone::testing::anyLineContains(written, "[contact][onset] element = Force_Contact/300"));
  EXPECT_TRUE(lodestone::testing::anyLineContains(written, "[contact][separation] element = Force_Contact/300"));
}

}  // namespace
}  // namespace lodestone::cli
