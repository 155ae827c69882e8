// Sensor_Event through the whole pipeline: a body falling from 1 m under gravity crosses z = 0.5 m at
// t* = sqrt(2·0.5/g) = 0.31927542840705 s. Sensors on DZ of its CG marker locate that time, and their actions
// (halt, return, print, dt, hmax) change the run as MotionSolve documents; Deactivate and Activate switch a sensor.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

const double kCrossing = std::sqrt(2 * 0.5 / kG);

struct SensorRun {
  bool completed = false;
  ResultsTable bodies;
  std::vector<std::string> events;  // events.csv rows, header first
  std::string log;
  std::vector<std::string> trace;  // debug.log, with DebugOutput
};

// A 1 kg body falling from z = 1 m, with the given Sensor_Event attributes and commands.
SensorRun runFall(const std::string& name, const std::string& sensor, const std::string& commands,
                  const std::string& moreModel = "") {
  const std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Force_Gravity grav_z=\"-9.81\"/>\n"
      "<Param_Transient integr_tol=\"1e-8\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"1\"/>\n"
      "<Sensor_Event id=\"41\" type=\"EXPRESSION\" " + sensor + "/>\n" + moreModel +
      "</Model><Command>\n" + commands + "\n</Command></MultiBodySystem>\n";
  const DeckRun deckRun = runDeckText(name, deck);
  const std::filesystem::path& output = deckRun.output;
  SensorRun run{deckRun.completed, ResultsTable((output / "bodies.csv").string()), readLines(output / "events.csv"),
                "", {}};
  if (std::filesystem::exists(output / "debug.log")) run.trace = readLines(output / "debug.log");
  for (const std::string& line : readLines(output / "run.log")) run.log += line + "\n";
  return run;
}

const std::string kSimulateToOne = "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>";
const std::string kFallsBelowHalf = "expr=\"DZ(20)\" compare=\"LT\" value=\"0.5\" error_tol=\"1e-6\" ";

std::vector<double> times(const ResultsTable& bodies) {
  std::vector<double> result;
  for (size_t row : bodies.rowsOfBody(2)) result.push_back(bodies.at(row, "time"));
  return result;
}

// halt: the run ends at the crossing, located within error_tol (in z, so within error_tol/|vz| in time), and
// the results end there.
TEST(SensorEvent, HaltEndsTheRunAtTheLocatedCrossing) {
  const SensorRun run = runFall("sensor_halt", kFallsBelowHalf + "halt=\"TRUE\"", kSimulateToOne);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  ASSERT_FALSE(rows.empty());
  const size_t last = rows.back();
  const double speed = kG * kCrossing;
  EXPECT_NEAR(run.bodies.at(last, "time"), kCrossing, 1e-6 / speed);
  EXPECT_NEAR(run.bodies.at(last, "z"), 0.5, 1e-6);
  EXPECT_EQ(times(run.bodies).size(), 5u) << "0, 0.1, 0.2, 0.3 and the crossing";
  ASSERT_EQ(run.events.size(), 2u);
  EXPECT_EQ(run.events[0], "time,id,action,value");
  EXPECT_NE(run.events[1].find(",41,halt,"), std::string::npos) << run.events[1];
  EXPECT_NEAR(std::stod(run.events[1]), kCrossing, 1e-6 / speed);
  EXPECT_NEAR(std::stod(run.events[1].substr(run.events[1].rfind(',') + 1)), 0.5, 1e-6);
  EXPECT_NE(run.log.find("Simulation halted by Sensor_Event id=41 ("), std::string::npos) << run.log;
  EXPECT_NE(run.log.find("DZ(20) LT 5.000000000E-01 at t="), std::string::npos) << run.log;
  RecordProperty("crossing_time_error_s", sci(run.bodies.at(last, "time") - kCrossing));
}

// return: the Simulate that was running ends at the crossing and the next command runs; here a second Simulate,
// which continues from the crossing with its own outputs. The motion goes on unchanged: z(1.2) = 1 − g·1.2²/2.
TEST(SensorEvent, ReturnEndsTheCurrentSimulateAndTheNextCommandContinues) {
  const SensorRun run = runFall(
      "sensor_return", kFallsBelowHalf + "return=\"TRUE\"",
      kSimulateToOne + "\n<Simulate analysis_type=\"Transient\" end_time=\"1.2\" print_interval=\"0.1\"/>");
  ASSERT_TRUE(run.completed);
  const std::vector<double> t = times(run.bodies);
  ASSERT_GE(t.size(), 6u);
  EXPECT_NEAR(t[4], kCrossing, 1e-6);
  EXPECT_NEAR(t[5], kCrossing + 0.1, 1e-9) << "the second Simulate's outputs start at the crossing";
  EXPECT_NEAR(t.back(), 1.2, 1e-12);
  const size_t last = run.bodies.rowsOfBody(2).back();
  EXPECT_NEAR(run.bodies.at(last, "z"), 1 - 0.5 * kG * 1.2 * 1.2, 1e-6);
  EXPECT_NE(run.events[1].find(",41,return,"), std::string::npos);
}

// A command changes a sensor between Simulates like any element: after returning at 0.5 m, the same sensor with
// value 0.2 and halt stops the run at the crossing of 0.2 m, sqrt(2·0.8/g) = 0.4039 s.
TEST(SensorEvent, ACommandChangesTheSensorBetweenSimulates) {
  const SensorRun run = runFall(
      "sensor_modified", kFallsBelowHalf + "return=\"TRUE\"",
      kSimulateToOne + "\n<Sensor_Event id=\"41\" value=\"0.2\" return=\"FALSE\" halt=\"TRUE\"/>\n"
                       "<Simulate analysis_type=\"Transient\" end_time=\"1.2\" print_interval=\"0.1\"/>");
  ASSERT_TRUE(run.completed);
  ASSERT_EQ(run.events.size(), 3u);
  EXPECT_NE(run.events[1].find(",41,return,"), std::string::npos);
  EXPECT_NE(run.events[2].find(",41,halt,"), std::string::npos);
  EXPECT_NEAR(times(run.bodies).back(), std::sqrt(2 * 0.8 / kG), 1e-6);
}

// print adds an output at the event; dt changes the output step from the event on.
TEST(SensorEvent, PrintWritesTheEventAndDtChangesTheOutputStep) {
  const SensorRun run = runFall("sensor_dt", kFallsBelowHalf + "print=\"TRUE\" dt=\"0.25\"", kSimulateToOne);
  ASSERT_TRUE(run.completed);
  const std::vector<double> t = times(run.bodies);
  ASSERT_EQ(t.size(), 8u) << "0..0.3, the crossing, then every 0.25 s and the end";
  EXPECT_NEAR(t[4], kCrossing, 1e-6);
  EXPECT_NEAR(t[5], kCrossing + 0.25, 1e-9);
  EXPECT_NEAR(t[6], kCrossing + 0.5, 1e-9);
  EXPECT_NEAR(t[7], 1.0, 1e-12);
  ASSERT_EQ(run.events.size(), 3u);
  EXPECT_NE(run.events[1].find(",41,print,"), std::string::npos);
  EXPECT_NE(run.events[2].find(",41,dt,"), std::string::npos);
}

// The number of IDAS steps in run.log's statistics.
long stepsOf(const std::string& log) {
  const size_t at = log.find("Number of solution steps");
  if (at == std::string::npos) return -1;
  const size_t equals = log.find_first_of("=:", at);
  return std::stol(log.substr(equals + 1));
}

// hmax from the event on: the remaining 0.68 s take at least 0.68 / 1e-4 = 6800 steps; without it a free fall
// takes a few dozen.
TEST(SensorEvent, HmaxLimitsTheStepsAfterTheEvent) {
  const SensorRun limited = runFall("sensor_hmax", kFallsBelowHalf + "hmax=\"1e-4\"", kSimulateToOne);
  const SensorRun free = runFall("sensor_free", kFallsBelowHalf, kSimulateToOne);
  ASSERT_TRUE(limited.completed && free.completed);
  EXPECT_GE(stepsOf(limited.log), 6800) << limited.log;
  EXPECT_LT(stepsOf(free.log), 1000) << free.log;
  EXPECT_NE(free.events[1].find(",41,none,"), std::string::npos) << "a sensor without actions is still an event";
  RecordProperty("steps_with_hmax", std::to_string(stepsOf(limited.log)));
  RecordProperty("steps_without", std::to_string(stepsOf(free.log)));
}

// stepsize: the first step after the event has that size (the trace's first end-step after the event).
TEST(SensorEvent, StepsizeSetsTheFirstStepAfterTheEvent) {
  const SensorRun run = runFall("sensor_stepsize", kFallsBelowHalf + "stepsize=\"1e-7\"", kSimulateToOne, "<DebugOutput/>\n");
  ASSERT_TRUE(run.completed);
  bool afterEvent = false;
  double firstStep = 0;
  for (const std::string& line : run.trace) {
    if (line.find("[events][end-event] sensor = Sensor_Event/41") != std::string::npos) afterEvent = true;
    if (afterEvent && line.find("[step][end-step]") != std::string::npos) {
      firstStep = std::stod(line.substr(line.find(", h = ") + 6));
      break;
    }
  }
  EXPECT_EQ(firstStep, 1e-7);
}

// verbose: the expression's value at every output, in run.log.
TEST(SensorEvent, VerboseLogsTheExpressionAtEveryOutput) {
  const SensorRun run = runFall("sensor_verbose", kFallsBelowHalf + "verbose=\"TRUE\"", kSimulateToOne);
  ASSERT_TRUE(run.completed);
  int lines = 0;
  size_t at = 0;
  while ((at = run.log.find(": DZ(20) = ", at)) != std::string::npos) {
    ++lines;
    ++at;
  }
  EXPECT_EQ(lines, 10) << "outputs at 0.1 … 1.0";
  EXPECT_NE(run.log.find(": DZ(20) = 9.509500000E-01 at t=1.000000000E-01"), std::string::npos) << run.log;
}

// Without zero crossing the sensor is checked after each step: it acts at the first step past the crossing.
TEST(SensorEvent, WithoutZeroCrossingTheEventIsNoticedAfterAStep) {
  const SensorRun run =
      runFall("sensor_unlocated", kFallsBelowHalf + "zero_crossing=\"FALSE\" halt=\"TRUE\"", kSimulateToOne);
  ASSERT_TRUE(run.completed);
  const double stopped = times(run.bodies).back();
  EXPECT_GE(stopped, kCrossing);
  EXPECT_LT(stopped, 1.0);
  EXPECT_NE(run.log.find("noticed after a step, not located"), std::string::npos) << run.log;
}

// Deactivate before the first Simulate switches the sensor off; Activate before the second switches it on again.
// Falling below 0.2 m happens at sqrt(2·0.8/g) = 0.4039 s: in the second Simulate, where the sensor halts the run;
// falling below 0.5 m happens in the first, unseen.
TEST(SensorEvent, DeactivateAndActivateSwitchTheSensor) {
  const std::string commands =
      "<Deactivate element_type=\"SENSOR\" element_id=\"41\"/>\n"
      "<Simulate analysis_type=\"Transient\" end_time=\"0.35\" print_interval=\"0.05\"/>\n"
      "<Activate element_type=\"SENSOR\" element_id=\"41\"/>\n"
      "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.05\"/>";
  const SensorRun deep = runFall("sensor_switch_deep",
                                 "expr=\"DZ(20)\" compare=\"LT\" value=\"0.2\" error_tol=\"1e-6\" halt=\"TRUE\"", commands);
  ASSERT_TRUE(deep.completed);
  ASSERT_EQ(deep.events.size(), 2u);
  EXPECT_NEAR(times(deep.bodies).back(), std::sqrt(2 * 0.8 / kG), 1e-6);
  const SensorRun early = runFall("sensor_switch_early", kFallsBelowHalf + "halt=\"TRUE\"", commands);
  ASSERT_TRUE(early.completed);
  EXPECT_EQ(early.events.size(), 1u) << "crossed while deactivated; below 0.5 m from then on, no new crossing";
  EXPECT_NEAR(times(early.bodies).back(), 1.0, 1e-12);
  EXPECT_NE(early.log.find("Applying Deactivate"), std::string::npos) << early.log;
}

}  // namespace
}  // namespace lodestone::testing
