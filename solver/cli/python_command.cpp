// Starting the Python half of `lodestone`: sweep and plot (python_command.h).
#include "python_command.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace lodestone::cli {

namespace fs = std::filesystem;

fs::path packageFolderOf(const fs::path& executable) {
  const fs::path prefix = executable.parent_path().parent_path();
  for (const fs::path& folder : {prefix / "python", prefix / LODESTONE_PYTHON_INSTALL_DIR}) {
    std::error_code error;
    if (fs::is_regular_file(folder / "lodestone" / "__init__.py", error)) return folder.lexically_normal();
  }
  return {};
}

PythonLaunch planPythonLaunch(const std::string& module, const std::vector<std::string>& arguments,
                              const fs::path& executable, const char* pythonPath) {
  PythonLaunch launch;
  launch.program = LODESTONE_PYTHON;
  launch.argv = {launch.program, "-m", "lodestone." + module};
  launch.argv.insert(launch.argv.end(), arguments.begin(), arguments.end());
  launch.executable = executable.string();
  const fs::path package = packageFolderOf(executable);
  const std::string before = pythonPath ? pythonPath : "";
  launch.pythonPath = package.empty() ? before : package.string() + (before.empty() ? "" : ":" + before);
  return launch;
}

std::string execPython(const PythonLaunch& launch) {
  // This process's environment with the two variables replaced, built aside so that a failed start changes nothing.
  std::vector<std::string> environment;
  for (char** variable = environ; *variable; ++variable) {
    const std::string text = *variable;
    if (!text.starts_with("LODESTONE_EXECUTABLE=") && !text.starts_with("PYTHONPATH=")) environment.push_back(text);
  }
  environment.push_back("LODESTONE_EXECUTABLE=" + launch.executable);
  if (!launch.pythonPath.empty()) environment.push_back("PYTHONPATH=" + launch.pythonPath);
  const auto pointers = [](std::vector<std::string>& texts) {
    std::vector<char*> list;
    for (std::string& text : texts) list.push_back(text.data());
    list.push_back(nullptr);
    return list;
  };
  std::vector<std::string> arguments = launch.argv;
  execve(launch.program.c_str(), pointers(arguments).data(), pointers(environment).data());
  return "cannot start " + launch.program + ": " + std::strerror(errno);
}

}  // namespace lodestone::cli
