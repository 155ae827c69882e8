// Finding scripts; the embedded interpreter (python_engine.h) runs them.
#include "python_scripts.h"

#include <cstdlib>
#include <filesystem>

#include "python_engine.h"
#include "user_library.h"

namespace lodestone {

namespace fs = std::filesystem;

std::vector<std::string> scriptCandidates(std::string_view name, const std::string& deckFolder,
                                          std::string_view searchPath) {
  if (fs::path(name).is_absolute()) return {std::string(name)};
  std::vector<std::string> candidates;
  for (const std::string& folder : userFileFolders(deckFolder, searchPath)) {
    candidates.push_back((fs::path(folder) / name).string());
  }
  return candidates;
}

PythonScripts::PythonScripts(std::string deckFolder) : deckFolder_(std::move(deckFolder)) {}

std::shared_ptr<const PythonScript> PythonScripts::load(std::string_view name) {
  const char* searchPath = std::getenv("LODESTONE_USERSUB_PATH");
  const std::vector<std::string> candidates = scriptCandidates(name, deckFolder_, searchPath ? searchPath : "");
  const std::string path = findUserFile("script", name, candidates);  // the interpreter starts only for a script found
  return userCodeIsOnlyInspected() ? pythonEngine().inspect(path) : pythonEngine().load(path);
}

std::shared_ptr<const PythonFunction> scriptFunction(const std::shared_ptr<const PythonScript>& script,
                                                     const std::string& name) {
  return pythonEngine().function(script, name);
}

}  // namespace lodestone
