// What results.h5 and the animation cost on the sphere pile (pile_deck.h, zero_crossing FALSE, 1 s, an output every
// 0.01 s): the run's wall time with every writer `lodestone run` uses, and the time spent in each writer — the CSV
// files, results.h5 (its rows, and creating and closing it), the animation (every output a frame) — with the size
// each leaves on disk.
//
//   results_files_benchmark [N ...]     (default: N = 100; PILE_END_TIME=t simulates t seconds instead of 1)
//
// Measured on the 2-core development VM under other sessions' load (load average 8; Release, KLU), three runs:
//   N=100, 1 s, 101 frames: wall 10.5-11.5 s; CSV 0.13-0.15 s (1.3 %, 15.3 MB); results.h5 0.09-0.10 s (0.8-0.9 %,
//   12.1 MB); animation 0.50-0.56 s (4.5-5.3 %, 84.9 MB: 0.84 MB a frame, 16 200 points and 32 000 triangles of
//   tessellated spheres and the box); results.h5 + animation 5.4-6.2 % of the run (the bound: 10 %).
// What a frame costs is mostly creating its files (perf: openat), not VTK: hence one file per part and frame.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "elements/model_builder.h"
#include "pile_deck.h"
#include "solver/driver/simulation.h"
#include "solver/driver/stopwatch.h"
#include "solver/output/animation_writer.h"
#include "solver/output/body_results_writer.h"
#include "solver/output/contact_results_writer.h"
#include "solver/output/energy_results_writer.h"
#include "solver/output/impact_results_writer.h"
#include "solver/output/results_h5.h"
#include "solver/xml/deck_reader.h"

using namespace lodestone;
namespace fs = std::filesystem;

namespace {

double endTime() {
  const char* text = std::getenv("PILE_END_TIME");
  return text ? std::atof(text) : 1.0;
}

double megabytes(const fs::path& path) {
  std::uintmax_t bytes = 0;
  if (fs::is_directory(path)) {
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(path)) {
      if (entry.is_regular_file()) bytes += entry.file_size();
    }
  } else if (fs::exists(path)) {
    bytes = fs::file_size(path);
  }
  return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

void runPile(int count) {
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec =
      readDeckText(benchmark::pileDeck(count, false, benchmark::kPileBuiltInLaws, endTime()), "pile.xml", diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) {
    std::fprintf(stderr, "%s", diagnostics.formatAll().c_str());
    std::exit(1);
  }
  const fs::path folder = fs::temp_directory_path() / ("lodestone_results_files_benchmark_" + std::to_string(count));
  fs::remove_all(folder);
  fs::create_directories(folder);

  const auto start = std::chrono::steady_clock::now();
  double csvSeconds = 0, h5Seconds = 0, animationSeconds = 0;
  Stopwatch watch;
  BodyResultsWriter bodies(folder / "bodies.csv");
  EnergyResultsWriter energy(folder / "energy.csv");
  ContactResultsWriter contacts(folder / "contacts.csv");
  ImpactResultsWriter impacts(folder / "impacts.csv");
  csvSeconds += watch.lap();
  std::optional<ResultsH5File> h5;
  h5.emplace(folder / "results.h5", "pile.xml", model->units);
  h5->addTable(bodiesTable(), {});
  h5->addTable(energyTable(), {});
  h5->addTable(contactsTable(), {});
  h5->addTable(impactsTable(), {});
  h5Seconds += watch.lap();
  const std::unique_ptr<AnimationWriter> animation =
      openAnimation(folder, drawnGraphics(spec->graphics, spec->markers, *model), {});
  animationSeconds += watch.lap();

  Simulation simulation(std::move(*model));
  simulation.setImpactHandler([&](const ImpactEpisode& episode) {
    Stopwatch timer;
    impacts.write(episode);
    csvSeconds += timer.lap();
    h5->append(impactsTable(), std::span(&episode, 1));
    h5Seconds += timer.lap();
  });
  std::vector<BodyRow> bodyRows;
  std::vector<ContactRow> contactRows;
  simulation.setOutputHandler([&](const OutputFrame& frame) {
    Stopwatch timer;
    bodies.write(frame.time, frame.bodies);
    energy.write(*frame.energy);
    contacts.write(frame.time, frame.contacts);
    csvSeconds += timer.lap();
    // As run.cpp writes them.
    bodyRows.clear();
    for (const BodySample& body : frame.bodies) bodyRows.push_back({frame.time, body});
    contactRows.clear();
    for (const PairReport& pair : frame.contacts) contactRows.push_back({frame.time, pair});
    h5->append(bodiesTable(), std::span<const BodyRow>(bodyRows));
    h5->append(energyTable(), std::span(frame.energy, 1));
    h5->append(contactsTable(), std::span<const ContactRow>(contactRows));
    h5->flushWhenDue();
    h5Seconds += timer.lap();
    animation->write(frame.time, simulation.model(), frame.bodies, frame.contacts, frame.joints);
    animationSeconds += timer.lap();
  });
  SimulationSegment segment;
  segment.startTime = 0;
  segment.endTime = endTime();
  segment.printInterval = 0.01;
  const SegmentOutcome outcome = simulation.run(segment);
  simulation.finish();
  watch.lap();
  h5->flush();
  h5.reset();
  h5Seconds += watch.lap();
  animation->close();
  animationSeconds += watch.lap();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double percent = 100.0 / seconds;
  std::printf("N=%4d t_end=%g %s  wall %7.3f s  steps %5ld  frames %4d  |  CSV %.3f s (%.1f %%, %.1f MB)  "
              "results.h5 %.3f s (%.1f %%, %.1f MB)  animation %.3f s (%.1f %%, %.1f MB)  "
              "results.h5 + animation %.1f %% of the run\n",
              count, segment.endTime, outcome.completed ? "completed" : "FAILED   ", seconds,
              simulation.statistics().steps, animation->frames(), csvSeconds, csvSeconds * percent,
              megabytes(folder / "bodies.csv") + megabytes(folder / "energy.csv") + megabytes(folder / "contacts.csv") +
                  megabytes(folder / "impacts.csv"),
              h5Seconds, h5Seconds * percent, megabytes(folder / "results.h5"), animationSeconds,
              animationSeconds * percent, megabytes(folder / "animation") + megabytes(animation->path()),
              (h5Seconds + animationSeconds) * percent);
  std::fflush(stdout);
  fs::remove_all(folder);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> counts;
  for (int i = 1; i < argc; ++i) counts.push_back(std::atoi(argv[i]));
  if (counts.empty()) counts = {100};
  for (int count : counts) runPile(count);
  return 0;
}
