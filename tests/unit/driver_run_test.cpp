// runModelSpec / runDeck end to end with decks built in code: results and log on disk, commands executed in
// order (Simulate, modification, Stop), and every way of ending — completed, failed, bad deck — reported.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "elements/model_spec.h"
#include "solver/driver/run.h"
#include "support/contact_runs.h"
#include "support/text_files.h"

namespace lodestone {
namespace {

namespace fs = std::filesystem;

SourceLoc at(const std::string& element, std::optional<long> id, int line) {
  SourceLoc loc;
  loc.file = "drop.xml";
  loc.line = line;
  loc.column = 3;
  loc.element = element;
  loc.id = id;
  return loc;
}

class RunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    folder = fs::temp_directory_path() / ("lodestone_run_test_" + std::to_string(::getpid())) / test->name();
    fs::remove_all(folder);
    fs::create_directories(folder);
  }
  // Outputs of a failed test stay behind for inspection.
  void TearDown() override {
    if (HasFailure()) return;
    std::error_code ignored;
    fs::remove_all(folder, ignored);
    fs::remove(folder.parent_path(), ignored);  // only once empty
  }

  // A ground body and one 2 kg body thrown upwards at 5 m/s from 1 m, under g = 9.81 m/s².
  ModelSpec dropDeck() {
    ModelSpec spec;
    spec.deckPath = (folder / "drop.xml").string();
    ForceGravitySpec gravity;
    gravity.loc = at("Force_Gravity", std::nullopt, 4);
    gravity.grav_z = -9.81;
    spec.gravity = gravity;
    ParamTransientSpec transient;
    transient.loc = at("Param_Transient", std::nullopt, 3);
    transient.integrator_type = "DSTIFF";
    transient.integr_tol = 1e-8;
    transient.max_order = 5;
    spec.transient = transient;

    BodyRigidSpec ground;
    ground.loc = at("Body_Rigid", 1, 5);
    ground.id = 1;
    ground.isground = true;
    BodyRigidSpec body;
    body.loc = at("Body_Rigid", 2, 6);
    body.id = 2;
    body.mass = 2.0;
    body.inertia_xx = 0.1;
    body.inertia_yy = 0.2;
    body.inertia_zz = 0.3;
    body.cg_id = 20;
    body.v_ic_z = 5.0;
    spec.bodies = {ground, body};

    ReferenceMarkerSpec cg;
    cg.loc = at("Reference_Marker", 20, 7);
    cg.id = 20;
    cg.body_id = 2;
    cg.pos_z = 1.0;
    spec.markers = {cg};
    spec.elementCounts = {{"Param_Transient", 1}, {"Force_Gravity", 1}, {"Body_Rigid", 2}, {"Reference_Marker", 1}};
    return spec;
  }

  static SimulateSpec simulate(double endTime, double printInterval, int line) {
    SimulateSpec command;
    command.loc = at("Simulate", std::nullopt, line);
    command.analysis_type = "Transient";
    command.end_time = endTime;
    command.print_interval = printInterval;
    return command;
  }

  RunOutcome run(const ModelSpec& spec) {
    RunRequest request;
    request.deckPath = spec.deckPath;
    return runModelSpec(spec, request);
  }

  fs::path folder;
};

TEST_F(RunTest, CompletedRunWritesResultsAndLogBesideTheDeck) {
  ModelSpec spec = dropDeck();
  spec.commands = {simulate(1.0, 0.1, 9), StopSpec{at("Stop", std::nullopt, 10)}};
  const RunOutcome outcome = run(spec);
  ASSERT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  EXPECT_EQ(fs::path(outcome.outputDir), folder / "drop_results");

  const auto csv = testing::readLines(folder / "drop_results" / "bodies.csv");
  ASSERT_EQ(csv.size(), 12u);  // header + 11 output times × 1 moving body
  EXPECT_EQ(csv[0], "time,id,x,y,z,e0,e1,e2,e3,vx,vy,vz,wx,wy,wz,ax,ay,az,wdx,wdy,wdz");
  const std::vector<double> last = testing::csvFields(csv.back());
  EXPECT_EQ(last[0], 1.0);
  EXPECT_EQ(last[1], 2);
  // Analytic: z = 1 + 5t − g t²/2, vz = 5 − g t, at t = 1 (tolerance 1e-6 at integr_tol 1e-8).
  EXPECT_NEAR(last[4], 1 + 5 - 0.5 * 9.81, 1e-6);
  EXPECT_NEAR(last[11], 5 - 9.81, 1e-6);
  EXPECT_EQ(last[5], 1.0);  // e0: no rotation

  const auto log = testing::readLines(folder / "drop_results" / "run.log");
  EXPECT_TRUE(testing::anyLineContains(log, "INFO: Model units are METER SECOND NEWTON KILOGRAM."));
  EXPECT_TRUE(testing::anyLineContains(log, " Body_Rigid                   : 2"));
  EXPECT_TRUE(testing::anyLineContains(log, " Error Tolerance              : 1.000E-08"));
  EXPECT_TRUE(testing::anyLineContains(log, " Time=1.000E+00; Order="));
  EXPECT_TRUE(testing::anyLineContains(log, " Number of solution steps"));
  EXPECT_TRUE(testing::anyLineContains(log, "Execution terminated by STOP command."));
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back(), "Simulation completed.");
}

TEST_F(RunTest, ModificationBetweenSimulatesRebuildsTheModelAndContinues) {
  ModelSpec spec = dropDeck();
  ModifyCommand stronger;
  stronger.loc = at("Force_Gravity", std::nullopt, 10);
  stronger.apply = [](ModelSpec& model) { model.gravity->grav_z = -20.0; };
  spec.commands = {simulate(0.5, 0.1, 9), stronger, simulate(1.0, 0.1, 11)};
  const RunOutcome outcome = run(spec);
  ASSERT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  const auto csv = testing::readLines(folder / "drop_results" / "bodies.csv");
  ASSERT_EQ(csv.size(), 12u);  // 0.5 is written once, not by both segments
  const std::vector<double> last = testing::csvFields(csv.back());
  const double vz = 5 - 9.81 * 0.5, z = 1 + 5 * 0.5 - 0.5 * 9.81 * 0.25;
  EXPECT_NEAR(last[11], vz - 20 * 0.5, 1e-6);
  EXPECT_NEAR(last[4], z + vz * 0.5 - 0.5 * 20 * 0.25, 1e-6);
}

TEST_F(RunTest, CommandsAfterStopAreNotExecuted) {
  ModelSpec spec = dropDeck();
  spec.commands = {simulate(0.5, 0.1, 9), StopSpec{at("Stop", std::nullopt, 10)}, simulate(1.0, 0.1, 11)};
  ASSERT_EQ(run(spec).status, RunStatus::Completed);
  const auto csv = testing::readLines(folder / "drop_results" / "bodies.csv");
  EXPECT_EQ(testing::csvFields(csv.back())[0], 0.5);
}

TEST_F(RunTest, IntegratorFailureKeepsResultsAndNamesTheBody) {
  // The first Simulate runs normally; then the settings are made impossible to meet (a tight tolerance with a
  // large minimum step, for a fast tumbling body), so IDAS fails at the start of the second.
  ModelSpec spec = dropDeck();
  spec.bodies[1].w_ic_x = 30;
  spec.bodies[1].w_ic_y = 40;
  spec.bodies[1].w_ic_z = 50;
  ModifyCommand impossible;
  impossible.loc = at("Param_Transient", std::nullopt, 10);
  impossible.apply = [](ModelSpec& model) {
    model.transient->integr_tol = 1e-12;
    model.transient->h_min = 0.05;
    model.transient->h0_max = 0.05;
  };
  spec.commands = {simulate(0.5, 0.1, 9), impossible, simulate(1.0, 0.01, 11)};
  const RunOutcome outcome = run(spec);
  ASSERT_EQ(outcome.status, RunStatus::SimulationFailed) << outcome.message;
  EXPECT_NE(outcome.message.find("Body_Rigid id=2 (drop.xml:6:3)"), std::string::npos) << outcome.message;

  // Every row of the first segment survived.
  const auto csv = testing::readLines(folder / "drop_results" / "bodies.csv");
  ASSERT_GE(csv.size(), 7u);
  EXPECT_EQ(testing::csvFields(csv[6])[0], 0.5);
  const auto log = testing::readLines(folder / "drop_results" / "run.log");
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back().rfind("Simulation FAILED at t=5.000000E-01", 0), 0u) << log.back();
  EXPECT_NE(log.back().find("IDA_"), std::string::npos) << log.back();
  EXPECT_NE(log.back().find("Body_Rigid id=2"), std::string::npos) << log.back();
  // IDAS restarted after the modification and failed before accepting a step, so the culprit is found by the
  // weighted residual rather than a local error estimate.
  EXPECT_TRUE(testing::anyLineContains(log, "ERROR: largest weighted residual: Body_Rigid id=2 (drop.xml:6:3)"));
  EXPECT_TRUE(testing::anyLineContains(log, "IDAS error in IDASolve"));  // IDAS's own message went to the log, not stderr
}

// A run asked to stop (RunRequest::shouldStop, as Ctrl-C asks it) ends after the step it took: every output up to
// there is written whole, the statistics are logged, run.log's last line says when, and no later command runs.
// Fails when: the check is not made, an output the step reached is lost, or the run goes on to the next Simulate.
TEST_F(RunTest, InterruptedRunKeepsWhatItReachedAndSaysWhen) {
  ModelSpec spec = dropDeck();
  spec.commands = {simulate(1.0, 0.01, 9), simulate(2.0, 0.01, 10)};
  RunRequest request;
  request.deckPath = spec.deckPath;
  int checks = 0;
  request.shouldStop = [&checks] { return ++checks == 20; };
  const RunOutcome outcome = runModelSpec(spec, request);
  ASSERT_EQ(outcome.status, RunStatus::Interrupted) << outcome.message;
  EXPECT_EQ(checks, 20);

  const auto log = testing::readLines(folder / "drop_results" / "run.log");
  ASSERT_FALSE(log.empty());
  const std::string ending = "Simulation interrupted at t=";
  ASSERT_EQ(log.back().rfind(ending, 0), 0u) << log.back();
  const std::string when = log.back().substr(ending.size(), log.back().size() - ending.size() - 1);
  EXPECT_EQ(outcome.message, "interrupted at t=" + when);
  const double interruptedAt = std::stod(when);
  EXPECT_GT(interruptedAt, 0);
  EXPECT_LT(interruptedAt, 1);
  EXPECT_TRUE(testing::anyLineContains(log, " Number of solution steps"));
  EXPECT_FALSE(testing::anyLineContains(log, "FAILED"));

  const auto csv = testing::readLines(folder / "drop_results" / "bodies.csv");
  ASSERT_GE(csv.size(), 2u);
  for (size_t row = 1; row < csv.size(); ++row) {
    ASSERT_EQ(testing::csvFields(csv[row]).size(), 21u) << csv[row];
    EXPECT_NEAR(testing::csvFields(csv[row])[0], 0.01 * static_cast<double>(row - 1), 1e-12);
  }
  const double lastOutput = testing::csvFields(csv.back())[0];
  EXPECT_LE(lastOutput, interruptedAt * (1 + 1e-6));  // run.log's time has 7 digits
  EXPECT_LT(interruptedAt, lastOutput + 0.01);
}

TEST_F(RunTest, ImpossibleSimulateTimesAreADeckError) {
  ModelSpec spec = dropDeck();
  SimulateSpec backwards = simulate(1.0, 0.1, 12);
  backwards.start_time = 2.0;
  spec.commands = {backwards};
  const RunOutcome outcome = run(spec);
  EXPECT_EQ(outcome.status, RunStatus::BadDeck);
  EXPECT_TRUE(outcome.diagnostics.hasErrors());
  const auto log = testing::readLines(folder / "drop_results" / "run.log");
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back().rfind("Simulation FAILED", 0), 0u) << log.back();
}

TEST_F(RunTest, OutputFolderThatCannotBeCreatedFailsCleanly) {
  ModelSpec spec = dropDeck();
  spec.commands = {simulate(1.0, 0.1, 9)};
  RunRequest request;
  request.outputDir = "/proc/lodestone-cannot-write-here";  // not creatable, even by root
  const RunOutcome outcome = runModelSpec(spec, request);
  EXPECT_EQ(outcome.status, RunStatus::SimulationFailed);
  EXPECT_NE(outcome.message.find("/proc/lodestone-cannot-write-here"), std::string::npos) << outcome.message;
}

// A log lost to a full disk fails the run (exit 2) with the reason, as a results file the disk refuses does; the
// results written are kept. run.log is a link to /dev/full, which refuses every write.
TEST_F(RunTest, ALogTheDiskRefusesFailsTheRunSayingWhy) {
  ModelSpec spec = dropDeck();
  spec.commands = {simulate(0.1, 0.05, 9)};
  const fs::path results = folder / "results";
  fs::create_directories(results);
  fs::create_symlink("/dev/full", results / "run.log");
  RunRequest request;
  request.deckPath = spec.deckPath;
  request.outputDir = results.string();
  const RunOutcome outcome = runModelSpec(spec, request);
  EXPECT_EQ(outcome.status, RunStatus::SimulationFailed);
  EXPECT_EQ(outcome.message, "cannot write " + (results / "run.log").string() + ": No space left on device");
  EXPECT_EQ(testing::readLines(results / "bodies.csv").size(), 4u);  // the header and t = 0, 0.05, 0.1
}

TEST_F(RunTest, UnreadableDeckIsABadDeckWithoutOutputFolder) {
  RunRequest request;
  request.deckPath = (folder / "no-such-deck.xml").string();
  const RunOutcome outcome = runDeck(request);
  EXPECT_EQ(outcome.status, RunStatus::BadDeck);
  EXPECT_TRUE(outcome.diagnostics.hasErrors());
  EXPECT_TRUE(outcome.outputDir.empty());
  EXPECT_FALSE(fs::exists(folder / "no-such-deck_results"));
}

// ---- when the animation is written, as H3DOutput, ResOutput and --animation say ----------------------------

// The times of the frames animation.pvd lists, and the names of the parts at each.
struct Collection {
  std::vector<double> times;
  std::vector<std::string> parts;  // one per DataSet
};

Collection collectionOf(const fs::path& folder) {
  Collection collection;
  const std::string text = testing::fileText(folder / "animation.pvd");
  for (size_t at = text.find("timestep=\""); at != std::string::npos; at = text.find("timestep=\"", at + 1)) {
    const double time = std::stod(text.substr(at + 10));
    if (collection.times.empty() || collection.times.back() != time) collection.times.push_back(time);
    const size_t name = text.find("name=\"", at) + 6;
    collection.parts.push_back(text.substr(name, text.find('"', name) - name));
  }
  return collection;
}

// The ball drop with `model` added to its <Model> and `command` between two Simulates (to 0.1 s, then to 0.2 s).
std::string dropWithOutputSettings(const std::string& model, const std::string& command) {
  testing::BallDrop drop;
  drop.law = "cnf_type=\"IMPACT\" stiffness=\"1e5\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-3\"";
  std::string text = testing::ballDropDeck(drop);
  text.replace(text.find("</Model>"), 0, model);
  const std::string simulate = "<Simulate analysis_type=\"Transient\" end_time=\"0.2\"";
  text.replace(text.find(simulate), 0,
               "<Simulate analysis_type=\"Transient\" end_time=\"0.1\" print_interval=\"0.01\"/>" + command);
  return text;
}

TEST(RunAnimation, H3DOutputSwitchedOffWritesNoneEvenWithAResOutput) {
  const testing::DeckRun run = testing::runDeckText(
      "animation_off", dropWithOutputSettings("<H3DOutput switch_on=\"FALSE\"/><ResOutput/>", ""));
  EXPECT_FALSE(fs::exists(run.output / "animation.pvd"));
  EXPECT_FALSE(fs::exists(run.output / "animation"));
  EXPECT_TRUE(fs::exists(run.output / "results.h5"));
}

TEST(RunAnimation, ResOutputAloneWritesItAndContactGraOutputFalseLeavesTheContactsOut) {
  const testing::DeckRun with = testing::runDeckText("animation_res", dropWithOutputSettings("<ResOutput/>", ""));
  const Collection contacts = collectionOf(with.output);
  EXPECT_EQ(contacts.times.size(), 21u);  // 0, 0.01, ... 0.2
  EXPECT_EQ(std::count(contacts.parts.begin(), contacts.parts.end(), "contacts"), 21);
  const testing::DeckRun without = testing::runDeckText(
      "animation_res_no_contacts", dropWithOutputSettings("<ResOutput contact_gra_output=\"FALSE\"/>", ""));
  const Collection plain = collectionOf(without.output);
  EXPECT_EQ(plain.times, contacts.times);
  EXPECT_EQ(std::count(plain.parts.begin(), plain.parts.end(), "contacts"), 0);
  EXPECT_EQ(std::count(plain.parts.begin(), plain.parts.end(), "graphics"), 21);
}

// A command-form H3DOutput switches the animation on from the next Simulate, every increment-th output from then.
TEST(RunAnimation, H3DOutputInCommandStartsItForTheRestOfTheRun) {
  const testing::DeckRun run = testing::runDeckText(
      "animation_command", dropWithOutputSettings("", "<H3DOutput switch_on=\"TRUE\" increment=\"2\"/>"));
  const std::vector<std::string> bodies = testing::readLines(run.output / "bodies.csv");
  std::vector<double> later;  // output times of the second Simulate
  for (size_t row = 1; row < bodies.size(); ++row) {
    const double time = testing::csvFields(bodies[row])[0];
    if (time > 0.1 + 1e-9) later.push_back(time);
  }
  ASSERT_EQ(later.size(), 10u);
  const Collection collection = collectionOf(run.output);
  EXPECT_EQ(collection.times, (std::vector<double>{later[0], later[2], later[4], later[6], later[8]}));
}

TEST(RunAnimation, TheCommandLineWritesItWhateverTheDeckSays) {
  const fs::path deck = testing::scratchFile("animation_forced.xml");
  std::ofstream(deck) << dropWithOutputSettings("<H3DOutput switch_on=\"FALSE\"/>", "");
  RunRequest request;
  request.deckPath = deck.string();
  request.outputDir = testing::scratchFile("animation_forced_results").string();
  request.animation = true;
  const RunOutcome outcome = runDeck(request);
  ASSERT_EQ(outcome.status, RunStatus::Completed) << outcome.message;
  EXPECT_EQ(collectionOf(request.outputDir).times.size(), 21u);
}

}  // namespace
}  // namespace lodestone
