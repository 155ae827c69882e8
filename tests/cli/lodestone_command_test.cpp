// End-to-end tests of the built `lodestone` executable: usage errors, --version, check, run and batch on
// small decks written to a temporary folder, exit codes, results folders, and what goes to which stream.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/stat.h>

#include "solver/cli/process.h"
#include "temporary_folder.h"

namespace lodestone::cli {
namespace {

namespace fs = std::filesystem;
using testing::readFile;
using testing::TemporaryFolder;

// One free rigid body falling under gravity: the smallest deck that simulates.
std::string freeBodyDeck(const std::string& endTime = "0.1", const std::string& printInterval = "0.01") {
  return "<MultiBodySystem>\n"
         "<Model>\n"
         "  <Force_Gravity grav_z=\"-9.81\"/>\n"
         "  <Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "  <Reference_Marker id=\"10\" body_id=\"2\"/>\n"
         "  <Body_Rigid id=\"2\" cg_id=\"10\" mass=\"1\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>\n"
         "</Model>\n"
         "<Command>\n"
         "  <Simulate analysis_type=\"Transient\" end_time=\"" + endTime + "\" print_interval=\"" + printInterval +
         "\"/>\n"
         "  <Stop/>\n"
         "</Command>\n"
         "</MultiBodySystem>\n";
}

// The same deck with a negative mass on line 6: an error the reader must pin to that line and element.
std::string negativeMassDeck() {
  std::string deck = freeBodyDeck();
  deck.replace(deck.find("mass=\"1\""), 8, "mass=\"-1\"");
  return deck;
}

// A deck cut off in the middle, as an interrupted copy leaves it: not even well-formed XML.
const std::string kTruncatedDeck = "<MultiBodySystem>\n<Model>\n  <Body_Rigid id=\"1\" isground=\"TRUE\"/>\n";

const std::string kBodiesHeader = "time,id,x,y,z,e0,e1,e2,e3,vx,vy,vz,wx,wy,wz,ax,ay,az,wdx,wdy,wdz";

struct CommandResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

class LodestoneCommand : public ::testing::Test {
 protected:
  CommandResult lodestone(const std::vector<std::string>& arguments) {
    std::vector<std::string> argv{"lodestone"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const std::string outPath = folder / "stdout.txt", errPath = folder / "stderr.txt";
    const ProcessEnd end = runProcess({LODESTONE_EXECUTABLE, argv, outPath, errPath});
    CommandResult result{-1, readFile(outPath), readFile(errPath)};
    EXPECT_EQ(end.kind, ProcessEnd::Kind::Exited) << end.describe() << "\nstderr:\n" << result.err;
    result.exitCode = end.exitCode;
    return result;
  }

  void expectUsageError(const std::vector<std::string>& arguments, const std::string& message) {
    const CommandResult result = lodestone(arguments);
    EXPECT_EQ(result.exitCode, 64);
    EXPECT_EQ(result.err, "lodestone: " + message + "\nRun 'lodestone --help' for usage.\n");
    EXPECT_EQ(result.out, "");
  }

  TemporaryFolder folder;
};

// The table row of `deck` in batch's summary, or "" when there is none.
std::string summaryRow(const std::string& summary, const std::string& deck) {
  std::istringstream lines(summary);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(deck + " ")) return line;
  }
  return "";
}

TEST_F(LodestoneCommand, UsageErrorsExit64WithAHint) {
  expectUsageError({}, "no command given");
  expectUsageError({"simulate", "deck.xml"},
                   "unknown command 'simulate'; the commands are run, check, batch, sweep, plot, elements, "
                   "debug-summary and config");
  expectUsageError({"run"}, "'run' needs a deck: lodestone run DECK");
  expectUsageError({"run", "deck.xml", "--fast"}, "unknown option '--fast' for 'run'");
  expectUsageError({"run", "deck.xml", "-o"}, "option '-o' needs a value: a folder");
  expectUsageError({"batch", "deck.xml", "-j", "0"}, "option '-j' needs a whole number from 1 to 1024 (got '0')");
  expectUsageError({"batch", "deck.xml", "--timeout", "0"},
                   "option '--timeout' needs a number of seconds greater than 0 (got '0')");
  expectUsageError({"run", "deck.xml", "--timeout", "5"}, "unknown option '--timeout' for 'run'");
}

TEST_F(LodestoneCommand, VersionIsTheCMakeProjectVersion) {
  const std::string cmakeLists = readFile(std::string(LODESTONE_SOURCE_DIR) + "/CMakeLists.txt");
  const std::string declaration = "project(Lodestone VERSION ";
  const std::size_t start = cmakeLists.find(declaration);
  ASSERT_NE(start, std::string::npos) << "no project() line in the top-level CMakeLists.txt";
  const std::size_t versionStart = start + declaration.size();
  const std::string version =
      cmakeLists.substr(versionStart, cmakeLists.find_first_not_of("0123456789.", versionStart) - versionStart);
  ASSERT_FALSE(version.empty());
  const CommandResult result = lodestone({"--version"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out, "lodestone " + version + "\n");
  EXPECT_EQ(result.err, "");
}

TEST_F(LodestoneCommand, HelpGoesToStandardOutput) {
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"--help"}, {"help"}, {"batch", "--help"}}) {
    const CommandResult result = lodestone(arguments);
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_NE(result.out.find("Usage:"), std::string::npos);
    EXPECT_NE(result.out.find("Exit codes"), std::string::npos);
    EXPECT_EQ(result.err, "");
  }
}

// A process maps only the libraries its command needs (solver/core/modules.h), as the dynamic loader lists them with
// LD_DEBUG=files on standard error: the program alone for --version; the solver, but neither FCL, HDF5, VTK, Python
// nor libcurl, for check of a deck of primitives without scripts; HDF5 but neither FCL, VTK nor Python for its run; FCL
// for check of a deck with a mesh.
TEST_F(LodestoneCommand, ACommandLoadsOnlyTheLibrariesItNeeds) {
  const std::string deck = folder.write("free.xml", freeBodyDeck());
  setenv("LD_DEBUG", "files", 1);
  const CommandResult version = lodestone({"--version"});
  const CommandResult check = lodestone({"check", deck});
  const CommandResult run = lodestone({"run", deck, "-o", folder / "results"});
  unsetenv("LD_DEBUG");
  ASSERT_EQ(version.exitCode, 0);
  ASSERT_EQ(check.exitCode, 0);
  ASSERT_EQ(run.exitCode, 0);
  const auto loads = [](const CommandResult& command, const std::string& library) {
    return command.err.find("file=" + library) != std::string::npos ||
           command.err.find("/" + library) != std::string::npos;
  };
  for (const char* library : {"liblodestone_deck_commands.so", "libsundials_idas"}) {
    EXPECT_FALSE(loads(version, library)) << library;
    EXPECT_TRUE(loads(check, library)) << library << "\n" << check.err;
  }
  // Xerces-C is linked from its static archive without libcurl (solver/xml/xerces_setup.cpp): its shared library is
  // never loaded, nor, for check, libcurl with the two dozen libraries it needs (a run's HDF5 links libcurl itself).
  EXPECT_FALSE(loads(check, "libxerces-c"));
  EXPECT_FALSE(loads(run, "libxerces-c"));
  for (const char* library : {"libcurl", "libgnutls"}) EXPECT_FALSE(loads(check, library)) << library;
  for (const char* library : {"liblodestone_fcl.so", "libfcl"}) {
    EXPECT_FALSE(loads(check, library)) << library;
    EXPECT_FALSE(loads(run, library)) << library;
  }
  setenv("LD_DEBUG", "files", 1);
  const CommandResult meshCheck = lodestone({"check", LODESTONE_SOURCE_DIR "/models/cylinder_on_box_mesh.xml"});
  unsetenv("LD_DEBUG");
  ASSERT_EQ(meshCheck.exitCode, 0) << meshCheck.err;
  for (const char* library : {"liblodestone_fcl.so", "libfcl"}) {
    EXPECT_TRUE(loads(meshCheck, library)) << library << "\n" << meshCheck.err;
  }
  for (const char* library : {"liblodestone_results_h5.so", "libhdf5"}) {
    EXPECT_FALSE(loads(check, library)) << library;
    EXPECT_TRUE(loads(run, library)) << library << "\n" << run.err;
  }
  for (const char* library : {"liblodestone_animation.so", "libvtkCommonCore", "liblodestone_python_engine.so",
                              "libpython3"}) {
    EXPECT_FALSE(loads(check, library)) << library;
    EXPECT_FALSE(loads(run, library)) << library;
  }
}

TEST_F(LodestoneCommand, CheckOfAMissingFileIsABadDeckNamingTheFile) {
  const std::string missing = folder / "no_such_deck.xml";
  const CommandResult result = lodestone({"check", missing});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_TRUE(result.err.starts_with(missing + ":")) << result.err;  // the reader's diagnostic
  EXPECT_TRUE(result.out.starts_with(missing + ": 1 error")) << result.out;
  EXPECT_FALSE(fs::exists(folder / "no_such_deck_results")) << "check must not write results";
}

TEST_F(LodestoneCommand, CheckOfAGoodDeckSaysOk) {
  const std::string deck = folder.write("free_body.xml", freeBodyDeck());
  const CommandResult result = lodestone({"check", deck});
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_TRUE(result.out.starts_with(deck + ": OK (")) << result.out;
  EXPECT_FALSE(fs::exists(folder / "free_body_results")) << "check must not simulate";
}

TEST_F(LodestoneCommand, CheckPointsAtTheLineAndElementOfAnError) {
  const std::string deck = folder.write("negative_mass.xml", negativeMassDeck());
  const CommandResult result = lodestone({"check", deck});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_NE(result.err.find(deck + ":6:3: Body_Rigid id=2: attribute 'mass' must be >= 0 (got -1)"), std::string::npos)
      << result.err;
  EXPECT_TRUE(result.out.starts_with(deck + ": 1 error")) << result.out;
}

TEST_F(LodestoneCommand, RunWritesResultsBesideTheDeck) {
  const std::string deck = folder.write("free_body.xml", freeBodyDeck());
  const CommandResult result = lodestone({"run", deck});
  ASSERT_EQ(result.exitCode, 0) << result.err;

  const std::string results = folder / "free_body_results";
  EXPECT_NE(result.out.find("results: " + results + "\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(deck + ": "), std::string::npos) << "the outcome line names the deck: " << result.out;
  const std::string bodies = readFile(results + "/bodies.csv");
  EXPECT_TRUE(bodies.starts_with(kBodiesHeader + "\n")) << bodies.substr(0, 200);
  EXPECT_TRUE(fs::exists(results + "/run.log"));
}

TEST_F(LodestoneCommand, RunWritesResultsToTheOutputFolder) {
  const std::string deck = folder.write("free_body.xml", freeBodyDeck());
  const std::string results = folder / "elsewhere/run1";
  const CommandResult result = lodestone({"run", deck, "-o", results});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_TRUE(readFile(results + "/bodies.csv").starts_with(kBodiesHeader + "\n"));
  EXPECT_FALSE(fs::exists(folder / "free_body_results"));
}

// --set gives the deck's attribute another value: Force_Gravity has no id, so its ID is empty. The free body then
// falls with g = 2 m/s²: z = −t² at t = 0.1 s is −0.01.
TEST_F(LodestoneCommand, RunWithASettingSimulatesTheChangedDeck) {
  const std::string deck = folder.write("free_body.xml", freeBodyDeck());
  const std::string results = folder / "set";
  const CommandResult result = lodestone({"run", deck, "-o", results, "--set", "Force_Gravity::grav_z=-2"});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  const std::string bodies = readFile(results + "/bodies.csv");
  const std::string lastRow = bodies.substr(bodies.rfind('\n', bodies.size() - 2) + 1);
  EXPECT_TRUE(lastRow.starts_with("0.1,2,0,0,-0.01")) << lastRow;
}

TEST_F(LodestoneCommand, ASettingIsCheckedLikeTheDecksOwnAttributes) {
  const std::string deck = folder.write("free_body.xml", freeBodyDeck());
  const CommandResult check = lodestone({"check", deck, "--set", "Body_Rigid:2:mass=-1", "--set=Body_Rigid:7:mass=1"});
  EXPECT_EQ(check.exitCode, 1);
  EXPECT_NE(check.err.find(deck + ":6:3: Body_Rigid id=2: "), std::string::npos) << check.err;
  EXPECT_NE(check.err.find(deck + ": setting Body_Rigid:7:mass=1: the deck has no Body_Rigid id=7"),
            std::string::npos) << check.err;
  const CommandResult malformed = lodestone({"run", deck, "--set", "Body_Rigid:mass=1"});
  EXPECT_EQ(malformed.exitCode, 64);
  EXPECT_EQ(malformed.err, "lodestone: option '--set': 'Body_Rigid:mass=1' is not ELEMENT:ID:ATTRIBUTE=VALUE: it "
                           "needs two ':' before the '='\n");
}

TEST_F(LodestoneCommand, BatchPassesItsSettingsToEveryRun) {
  const std::string deck = folder.write("free_body.xml", freeBodyDeck());
  const CommandResult result =
      lodestone({"batch", deck, "-o", folder / "sweep", "--set", "Body_Rigid:2:mass=-1"});
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(readFile(folder / "sweep/free_body/console.log").find("Body_Rigid id=2: "), std::string::npos);
}

TEST_F(LodestoneCommand, RunOfABadDeckExits1AndSaysWhy) {
  const std::string deck = folder.write("truncated.xml", kTruncatedDeck);
  const CommandResult result = lodestone({"run", deck});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_TRUE(result.err.starts_with(deck + ":")) << "diagnostics first, each with the deck's name: " << result.err;
  EXPECT_NE(result.err.find(deck + ": "), std::string::npos);
  EXPECT_NE(result.err.find(" error"), std::string::npos) << result.err;
  EXPECT_EQ(result.out.find("results:"), std::string::npos) << result.out;
}

TEST_F(LodestoneCommand, RunOfAMissingDeckExits1) {
  const std::string missing = folder / "absent.xml";
  const CommandResult result = lodestone({"run", missing});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_TRUE(result.err.starts_with(missing + ":")) << result.err;
}

TEST_F(LodestoneCommand, NoProgressBarWhenStandardErrorIsNotATerminal) {
  // Long enough in simulated time and output steps that a terminal would show the bar.
  const std::string deck = folder.write("long.xml", freeBodyDeck("20", "0.001"));
  const CommandResult result = lodestone({"run", deck});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.err.find('\r'), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("%  t="), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("[#"), std::string::npos) << result.err;
}

TEST_F(LodestoneCommand, BatchKeepsGoingPastABadDeckAndReportsBoth) {
  const std::string bad = folder.write("bad.xml", kTruncatedDeck);
  const std::string good = folder.write("good.xml", freeBodyDeck());
  // One at a time and the bad deck first: the good one runs only if the batch went on.
  const CommandResult result = lodestone({"batch", bad, good, "-j", "1"});
  EXPECT_EQ(result.exitCode, 1) << "only a bad deck, nothing failed: " << result.out << result.err;

  EXPECT_NE(summaryRow(result.out, bad).find(" bad deck "), std::string::npos) << result.out;
  EXPECT_NE(summaryRow(result.out, good).find(" done "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("2 decks: 1 done, 1 bad deck, 0 failed, 0 crashed"), std::string::npos) << result.out;

  // One results folder per deck; the bad deck's keeps what its run printed.
  const std::string badConsole = readFile(folder / "bad_results/console.log");
  EXPECT_NE(badConsole.find(bad + ":"), std::string::npos) << badConsole;
  EXPECT_TRUE(fs::exists(folder / "good_results/console.log"));
  EXPECT_TRUE(readFile(folder / "good_results/bodies.csv").starts_with(kBodiesHeader + "\n"));
}

TEST_F(LodestoneCommand, BatchGivesDecksWithTheSameNameTheirOwnFolders) {
  const std::string first = folder.write("a/model.xml", freeBodyDeck());
  const std::string second = folder.write("b/model.xml", freeBodyDeck("0.2"));
  const std::string output = folder / "out";
  const CommandResult result = lodestone({"batch", "-o", output, first, second, "-j", "2"});
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_TRUE(summaryRow(result.out, first).ends_with("  " + output + "/model")) << result.out;
  EXPECT_TRUE(summaryRow(result.out, second).ends_with("  " + output + "/model-2")) << result.out;
  EXPECT_TRUE(readFile(output + "/model/bodies.csv").starts_with(kBodiesHeader + "\n"));
  EXPECT_TRUE(readFile(output + "/model-2/bodies.csv").starts_with(kBodiesHeader + "\n"));
}

TEST_F(LodestoneCommand, BatchReportsAMissingDeckWithoutMakingAFolderForIt) {
  const std::string missing = folder / "missing.xml";
  const std::string good = folder.write("good.xml", freeBodyDeck());
  const CommandResult result = lodestone({"batch", missing, good});
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(summaryRow(result.out, missing).find(" bad deck "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("no such file"), std::string::npos) << result.out;
  EXPECT_FALSE(fs::exists(folder / "missing_results"));
  EXPECT_NE(summaryRow(result.out, good).find(" done "), std::string::npos) << result.out;
}

// A deck path that is a FIFO would block its run for ever at the open: the batch refuses it by its type.
TEST_F(LodestoneCommand, BatchRefusesADeckThatIsAFifo) {
  const std::string fifo = folder / "pipe.xml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const std::string good = folder.write("good.xml", freeBodyDeck());
  const CommandResult result = lodestone({"batch", fifo, good});
  EXPECT_EQ(result.exitCode, 1) << result.out << result.err;
  EXPECT_NE(summaryRow(result.out, fifo).find(" bad deck "), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("is a FIFO, not a regular file"), std::string::npos) << result.out;
  EXPECT_NE(summaryRow(result.out, good).find(" done "), std::string::npos) << result.out;
}

TEST_F(LodestoneCommand, BatchOfGoodDecksInParallelExits0) {
  std::vector<std::string> arguments{"batch", "-j", "2"};
  for (int index = 0; index < 4; ++index) {
    arguments.push_back(folder.write("deck" + std::to_string(index) + ".xml", freeBodyDeck()));
  }
  const CommandResult result = lodestone(arguments);
  EXPECT_EQ(result.exitCode, 0) << result.out << result.err;
  EXPECT_NE(result.out.find("4 decks: 4 done, 0 bad decks, 0 failed, 0 crashed"), std::string::npos) << result.out;
  for (int index = 0; index < 4; ++index) {
    EXPECT_TRUE(fs::exists(folder / ("deck" + std::to_string(index) + "_results/bodies.csv"))) << index;
  }
}

}  // namespace
}  // namespace lodestone::cli

namespace lodestone::cli {
namespace {

// The free body spins fast; after a first good Simulate, a command demands a tolerance no step of at least
// h_min can meet, so the second Simulate fails at once.
std::string failingDeck() {
  std::string deck = freeBodyDeck("0.5", "0.1");
  deck.replace(deck.find("inertia_zz=\"1\""), 14, "inertia_zz=\"1\" w_ic_x=\"30\" w_ic_y=\"40\" w_ic_z=\"50\"");
  deck.replace(deck.find("  <Stop/>"), 9,
               "  <Param_Transient integr_tol=\"1e-12\" h_min=\"0.05\" h0_max=\"0.05\"/>\n"
               "  <Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.01\"/>\n  <Stop/>");
  return deck;
}

TEST_F(LodestoneCommand, FailedSimulationExits2AndKeepsEarlierResults) {
  const std::string deck = folder.write("spin.xml", failingDeck());
  const CommandResult result = lodestone({"run", deck});
  EXPECT_EQ(result.exitCode, 2) << result.out << result.err;
  EXPECT_NE(result.err.find("Body_Rigid id=2"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("; results up to the failure are kept"), std::string::npos) << result.err;
  const std::string bodies = readFile(folder / "spin_results/bodies.csv");
  EXPECT_NE(bodies.find("\n0.5,2,"), std::string::npos) << "the first Simulate's last row is kept:\n" << bodies;
  const std::string log = readFile(folder / "spin_results/run.log");
  EXPECT_NE(log.find("Simulation FAILED at t="), std::string::npos) << log;
}

TEST_F(LodestoneCommand, ElementsListsAndDescribesFromTheSchemas) {
  const CommandResult list = lodestone({"elements"});
  EXPECT_EQ(list.exitCode, 0);
  EXPECT_NE(list.out.find("  Body_Rigid\n"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("  Constraint_Joint\n"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("  Body_Flexible: flexible bodies are not available\n"), std::string::npos) << list.out;
  const CommandResult one = lodestone({"elements", "force_gravity"});
  EXPECT_EQ(one.exitCode, 0);
  EXPECT_NE(one.out.find("  grav_z: real, default 0, a command can change it\n"), std::string::npos) << one.out;
  const CommandResult unknown = lodestone({"elements", "Force_Gravitee"});
  EXPECT_EQ(unknown.exitCode, 64);
  EXPECT_NE(unknown.err.find("no element is called 'Force_Gravitee'"), std::string::npos) << unknown.err;
}

// docs/elements.md is what `lodestone elements --markdown` prints: a schema table changed without the page fails here.
TEST_F(LodestoneCommand, TheElementReferenceInDocsIsCurrent) {
  const CommandResult result = lodestone({"elements", "--markdown"});
  ASSERT_EQ(result.exitCode, 0) << result.err;
  EXPECT_NE(result.out.find("### Force_Contact\n"), std::string::npos);
  EXPECT_NE(result.out.find("| `stiffness` | real | >= 0 | default 0 | yes |"), std::string::npos);
  const std::string page = readFile(std::string(LODESTONE_SOURCE_DIR) + "/docs/elements.md");
  EXPECT_TRUE(page == result.out)
      << "docs/elements.md is out of date: run 'build/bin/lodestone elements --markdown > docs/elements.md'";
  expectUsageError({"elements", "Body_Rigid", "--markdown"},
                   "'elements --markdown' writes the whole reference; it takes no element names");
}

TEST_F(LodestoneCommand, RealMotionSolveDecksAreCheckedWithoutACrash) {
  const std::string folderOfDecks = std::string(LODESTONE_SHARED_DIR) +
      "/conformance/motionsolve/ImChaitanya_Vehicle-Dynamics-and-Tire-Performance-Testing-using-HyperWorks";
  for (const std::string name : {"TIRE TEST RIG.xml", "Project 1 model.xml"}) {
    const std::string deck = folderOfDecks + "/" + name;
    if (!fs::exists(deck)) GTEST_SKIP() << "conformance deck not available (needs ../shared): " << deck;
    const CommandResult result = lodestone({"check", deck});
    if (name == "TIRE TEST RIG.xml") {
      // Every element reads; what a run would need and cannot have is Altair's libraries, each named once with the
      // elements that need it, its GSE among them.
      EXPECT_EQ(result.exitCode, 0) << result.err.substr(0, 2000);
      EXPECT_NE(result.err.find("library \"mbdtire\" not found"), std::string::npos) << result.err.substr(0, 2000);
      EXPECT_NE(result.err.find("Control_StateEqn id=305001 (line 2023)"), std::string::npos)
          << result.err.substr(0, 2000);
    } else {
      EXPECT_EQ(result.exitCode, 1) << name << ": its driver's inputs read accelerations";
    }
    // Their joints and motions read without a word.
    EXPECT_EQ(result.err.find("Constraint_Joint id="), std::string::npos) << name;
    EXPECT_EQ(result.err.find("Motion_Joint id="), std::string::npos) << name;
  }
}

// A sphere of `radius` with its centre at `centreHeight`, over a ground stop whose top face is z = 0.05: the
// Force_Contact is on line 9, the sphere graphic on line 8 and its body on line 7, the stop on line 5.
std::string sphereInStopDeck(const std::string& radius, const std::string& centreHeight) {
  return "<MultiBodySystem>\n"
         "<Model>\n"
         "  <Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "  <Reference_Marker id=\"11\" body_id=\"1\"/>\n"
         "  <Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"1\" "
         "length_y=\"1\" length_z=\"0.1\"/>\n"
         "  <Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"" + centreHeight + "\"/>\n"
         "  <Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"1e-4\" inertia_yy=\"1e-4\" inertia_zz=\"1e-4\"/>\n"
         "  <Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" + radius + "\"/>\n"
         "  <Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" stiffness=\"1e7\" "
         "exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"/>\n"
         "</Model>\n"
         "<Command>\n"
         "  <Simulate analysis_type=\"Transient\" end_time=\"0.01\" print_interval=\"0.001\"/>\n"
         "</Command>\n"
         "</MultiBodySystem>\n";
}

// What both the check and the run say of the pair, with every deck line.
std::string interferingPair(const std::string& deck) {
  return "Post_Graphic id=200 (" + deck + ":8:3) on Body_Rigid id=2 (" + deck + ":7:3) and Post_Graphic id=100 (" +
         deck + ":5:3) on ground overlap by ";
}

TEST_F(LodestoneCommand, CheckAndRunRefuseASphereStartingDeepInsideItsStop) {
  // 3 mm into the stop, the sphere 20 mm across: 15 % of the thinner graphic, more than the 10 % a start may overlap.
  const std::string deck = folder.write("sphere_in_stop.xml", sphereInStopDeck("0.01", "0.057"));
  const CommandResult check = lodestone({"check", deck});
  EXPECT_EQ(check.exitCode, 1);
  const std::string said = deck + ":9:3: Force_Contact id=300: " + interferingPair(deck) +
                           "3.000E-03 at the start, 15% of the thinner graphic (2.000E-02 across), more than the 10% "
                           "a start may overlap";
  EXPECT_NE(check.err.find(said), std::string::npos) << check.err;
  EXPECT_TRUE(check.out.starts_with(deck + ": 1 error, 0 warnings")) << check.out;

  // The run fails before its first step (exit 2), saying so in run.log's last ERROR line and on stderr.
  const CommandResult run = lodestone({"run", deck});
  EXPECT_EQ(run.exitCode, 2) << run.err;
  EXPECT_NE(run.err.find("Force_Contact id=300: " + interferingPair(deck) + "3.000E-03"), std::string::npos) << run.err;
  const std::string log = readFile(folder / "sphere_in_stop_results/run.log");
  EXPECT_NE(log.find(" ERROR: Force_Contact id=300 (" + deck + ":9:3): " + interferingPair(deck) + "3.000E-03"),
            std::string::npos)
      << log;
}

TEST_F(LodestoneCommand, CheckAndRunWarnOfASpherePressedSlightlyIntoItsStop) {
  // 0.3 mm into the stop, the sphere 100 mm across: 0.3 %, a preload.
  const std::string deck = folder.write("sphere_on_stop.xml", sphereInStopDeck("0.05", "0.0997"));
  const CommandResult check = lodestone({"check", deck});
  EXPECT_EQ(check.exitCode, 0) << check.err;
  const std::string said = deck + ":9:3: warning: Force_Contact id=300: " + interferingPair(deck) +
                           "3.000E-04 at the start, 0.3% of the thinner graphic (1.000E-01 across): the contact starts "
                           "pressed in";
  EXPECT_NE(check.err.find(said), std::string::npos) << check.err;
  EXPECT_TRUE(check.out.starts_with(deck + ": OK (1 warning)")) << check.out;

  const CommandResult run = lodestone({"run", deck});
  EXPECT_EQ(run.exitCode, 0) << run.err;
  const std::string log = readFile(folder / "sphere_on_stop_results/run.log");
  EXPECT_NE(log.find(" WARNING: Force_Contact id=300 (" + deck + ":9:3): " + interferingPair(deck) + "3.000E-04"),
            std::string::npos)
      << log;
}

// From the build tree, `lodestone config` points at the source tree's headers and build/lib; a lodestone with neither
// beside it says what to install. (The installed tree: tests/package/install_test.cpp.)
TEST_F(LodestoneCommand, ConfigGivesTheBuildTreesSubroutineFlags) {
  const CommandResult flags = lodestone({"config", "--cflags", "--libs"});
  EXPECT_EQ(flags.exitCode, 0) << flags.err;
  const std::string lib = fs::canonical(std::string(LODESTONE_BINARY_DIR) + "/lib").string();
  EXPECT_EQ(flags.out, "-I" + fs::canonical(std::string(LODESTONE_SOURCE_DIR) + "/plugins/include").string() + " -L" +
                           lib + " -Wl,-rpath," + lib + " -llodestone_usersub\n");
  EXPECT_EQ(lodestone({"config", "--libs"}).out, "-L" + lib + " -Wl,-rpath," + lib + " -llodestone_usersub\n");

  const std::string alone = folder / "alone/bin/lodestone";
  fs::create_directories(folder / "alone/bin");
  fs::copy_file(LODESTONE_EXECUTABLE, alone);
  const std::string errPath = folder / "stderr.txt";
  const ProcessEnd end = runProcess({alone, {"lodestone", "config", "--cflags"}, folder / "stdout.txt", errPath});
  EXPECT_EQ(end.exitCode, 1);
  EXPECT_EQ(readFile(errPath), "lodestone: the subroutine headers and liblodestone_usersub are not beside " +
                                   fs::canonical(alone).string() + " (looked in " +
                                   fs::canonical(folder.path()).string() + "/alone/include and " +
                                   fs::canonical(folder.path()).string() +
                                   "/alone/lib): install them with cmake --install BUILD --component usersub\n");
}

}  // namespace
}  // namespace lodestone::cli
