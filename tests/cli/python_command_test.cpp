// How `lodestone sweep` and `lodestone plot` start Python: which interpreter, module and arguments, and where the
// package is found beside the executable (build tree or install) so that the modules and the runs match.
#include "solver/cli/python_command.h"

#include <gtest/gtest.h>

#include "cli/temporary_folder.h"

namespace lodestone::cli {
namespace {

TEST(PythonCommand, RunsTheModuleWithTheArgumentsAsGiven) {
  const PythonLaunch launch = planPythonLaunch("sweep", {"ball.xml", "--vary", "Force_Contact:300:damping=0,0.1"},
                                               "/nowhere/bin/lodestone", nullptr);
  EXPECT_EQ(launch.program, LODESTONE_PYTHON);  // Debian's /usr/bin/python3, as CMake was told
  EXPECT_EQ(launch.argv, (std::vector<std::string>{LODESTONE_PYTHON, "-m", "lodestone.sweep", "ball.xml", "--vary",
                                                   "Force_Contact:300:damping=0,0.1"}));
  EXPECT_EQ(launch.executable, "/nowhere/bin/lodestone");
  EXPECT_EQ(launch.pythonPath, "");  // no package beside it: the interpreter looks where it always does
  EXPECT_EQ(planPythonLaunch("plot", {}, "/nowhere/bin/lodestone", "/mine").pythonPath, "/mine");
}

TEST(PythonCommand, FindsThePackageOfABuildTreeOrAnInstallFirstOnPythonPath) {
  const testing::TemporaryFolder build;
  build.write("python/lodestone/__init__.py", "\"\"\"Lodestone.\"\"\"\n");
  const std::filesystem::path executable = build.path() / "bin" / "lodestone";
  EXPECT_EQ(packageFolderOf(executable), build.path() / "python");
  EXPECT_EQ(planPythonLaunch("plot", {"out"}, executable, "/mine").pythonPath, (build / "python") + ":/mine");

  const testing::TemporaryFolder prefix;
  prefix.write(std::string(LODESTONE_PYTHON_INSTALL_DIR) + "/lodestone/__init__.py", "\"\"\"Lodestone.\"\"\"\n");
  EXPECT_EQ(packageFolderOf(prefix.path() / "bin" / "lodestone"), prefix.path() / LODESTONE_PYTHON_INSTALL_DIR);

  const testing::TemporaryFolder empty;
  EXPECT_EQ(packageFolderOf(empty.path() / "bin" / "lodestone"), std::filesystem::path());
}

TEST(PythonCommand, SaysWhyTheInterpreterCannotStart) {
  PythonLaunch launch = planPythonLaunch("plot", {}, "/nowhere/bin/lodestone", nullptr);
  launch.program = "/nowhere/python3";
  EXPECT_EQ(execPython(launch), "cannot start /nowhere/python3: No such file or directory");
}

}  // namespace
}  // namespace lodestone::cli
