// The default results folder, the one rule `run` and `batch` share.
#include "results_folder.h"

#include <filesystem>

namespace lodestone {

std::string defaultResultsFolder(const std::string& deckPath, int copy) {
  const std::filesystem::path deck(deckPath);
  std::string name = deck.stem().string();
  if (copy > 1) name += "-" + std::to_string(copy);
  return (deck.parent_path() / (name + "_results")).string();
}

}  // namespace lodestone
