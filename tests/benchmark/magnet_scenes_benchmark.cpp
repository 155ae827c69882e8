// The scenes of Westhofen et al. 2024 (../shared/seeds/002_6b2fdeafc62c7938.txt, Table 1) as decks of models/magnets/,
// each run through `runDeck` as `lodestone run` would, its wall and CPU time printed beside the paper's T_total for
// the same simulated time (32 cores; the simulated time is Table 1's steps, T_total / T_step, times its Δt). A scene
// without a deck yet says so. A shortened run (MAGNET_SCENES_END_TIME) is compared with the paper's time per simulated
// second, as a rate.
//
//   magnet_scenes_benchmark [SCENE ...]     (default: every scene; SCENE is a deck's stem: compass_needles)
//   MAGNET_SCENES_END_TIME=t                simulates t seconds of each instead of the paper's duration
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "solver/driver/run.h"

namespace fs = std::filesystem;

namespace {

struct PaperScene {
  const char* deck;   // models/magnets/<deck>.xml
  const char* title;  // Table 1's
  double totalSeconds, stepMilliseconds, stepSize;  // T_total, T_step, Δt (s)
  double simulated() const { return totalSeconds / (stepMilliseconds * 1e-3) * stepSize; }
};

const PaperScene kScenes[] = {
    {"compass_needles", "Magnetic Fields", 3206.011, 2135.87, 10e-3},
    {"ball_track", "Perpetuum Motion Simulator", 790.938, 26.36, 1e-3},
    {"magnetic_crane", "Magnetic Crane", 22307.2, 1943.98, 1.92e-3},
    {"sphere_of_objects", "Sphere of Magnetic Objects", 4351.453, 174.02, 1e-3},
};

double cpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// The deck's text with its Simulate end_time set to `endTime`, and its mesh files named from the deck's folder (the
// copy is run from elsewhere).
std::string withEndTime(const fs::path& deck, double endTime) {
  std::ifstream file(deck);
  std::stringstream text;
  text << file.rdbuf();
  const std::string endTimeAttribute = "end_time=\"" + std::to_string(endTime) + "\"";
  const std::string timed = std::regex_replace(text.str(), std::regex("end_time=\"[^\"]*\""), endTimeAttribute);
  return std::regex_replace(timed, std::regex("mesh_file=\""), "mesh_file=\"" + deck.parent_path().string() + "/");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> wanted(argv + 1, argv + argc);
  const char* endTimeText = std::getenv("MAGNET_SCENES_END_TIME");
  std::printf("%-28s %10s %10s %10s %12s %12s %8s\n", "scene", "simulated", "wall s", "CPU s", "paper s",
              "paper same", "ratio");
  for (const PaperScene& scene : kScenes) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), scene.deck) == wanted.end()) continue;
    const fs::path deck = fs::path(LODESTONE_SOURCE_DIR) / "models" / "magnets" / (std::string(scene.deck) + ".xml");
    if (!fs::exists(deck)) {
      std::printf("%-28s no deck yet (models/magnets/%s.xml); the paper: %.0f s for %.1f s\n", scene.title,
                  scene.deck, scene.totalSeconds, scene.simulated());
      continue;
    }
    const double endTime = endTimeText ? std::atof(endTimeText) : scene.simulated();
    const fs::path shortened = fs::temp_directory_path() / (std::string("magnet_scene_") + scene.deck + ".xml");
    std::ofstream(shortened) << withEndTime(deck, endTime);
    lodestone::RunRequest request;
    request.deckPath = shortened.string();
    request.outputDir = (fs::temp_directory_path() / (std::string("magnet_scene_") + scene.deck)).string();
    const double cpu0 = cpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    const lodestone::RunOutcome outcome = lodestone::runDeck(request);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = cpuSeconds() - cpu0;
    const double paperSame = scene.totalSeconds * endTime / scene.simulated();
    std::printf("%-28s %10.3g %10.1f %10.1f %12.0f %12.0f %8.1f%s\n", scene.title, endTime, wall, cpu,
                scene.totalSeconds, paperSame, paperSame / wall,
                outcome.status == lodestone::RunStatus::Completed ? "" : "  (did not complete)");
    if (outcome.status != lodestone::RunStatus::Completed) std::printf("  %s\n", outcome.message.c_str());
  }
  return 0;
}
