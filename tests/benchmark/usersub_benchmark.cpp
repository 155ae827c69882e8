// What a user subroutine costs: nanoseconds per call of the built-in IMPACT and COULOMB_ON laws and of the same
// laws as C subroutines (models/usersub/impact_coulomb.c, called through their function pointers as the
// evaluator calls them), and the whole-run wall time of a 64-sphere pile with each. Prints figures; asserts
// nothing.
//
//   usersub_benchmark [calls]     (default 10000000)
//
// Measured on the 2-core development VM (RelWithDebInfo), see the closing note of the user-subroutine issue.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "elements/model_builder.h"
#include "lodestone/usersub.h"
#include "pile_deck.h"
#include "plugins/builtin/builtin_laws.h"
#include "plugins/user_library.h"
#include "solver/driver/simulation.h"
#include "solver/xml/deck_reader.h"

using namespace lodestone;

namespace {

const std::string kLibrary = std::string(LODESTONE_BINARY_DIR) + "/lib/usersub_examples.so";

template <class Call>
void timeCalls(const char* label, long calls, volatile double& sink, Call call) {
  const auto start = std::chrono::steady_clock::now();
  double sum = 0;
  for (long i = 0; i < calls; ++i) sum += call(i);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sink = sink + sum;
  std::printf("%-34s %10.2f ns per call\n", label, 1e9 * seconds / static_cast<double>(calls));
}

double runPile(const std::string& laws) {
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec =
      readDeckText(benchmark::pileDeck(64, false, laws, 0.3), "pile.xml", diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) {
    std::fprintf(stderr, "%s", diagnostics.formatAll().c_str());
    std::exit(1);
  }
  Simulation simulation(std::move(*model));
  const auto start = std::chrono::steady_clock::now();
  const SegmentOutcome outcome = simulation.run({{}, 0.0, 0.3, 0.01});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outcome.completed) std::fprintf(stderr, "pile failed: %s\n", outcome.reason.c_str());
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  const long calls = argc > 1 ? std::atol(argv[1]) : 10000000;
  volatile double sink = 0;

  // Per call, inputs varying so nothing is hoisted: penetrations up to 0.2 mm, approach up to ±0.1 m/s.
  const std::vector<double> impact{1e7, 1.5, 20, 1e-4}, coulomb{0.3, 0.2, 0.01, 0.05};
  const auto penetrationOf = [](long i) { return 2e-4 * static_cast<double>(i % 1000) / 1000.0; };
  const auto rateOf = [](long i) { return 0.1 * (static_cast<double>(i % 733) / 366.5 - 1.0); };
  timeCalls("IMPACT, built-in", calls, sink, [&](long i) {
    NormalInput input;
    input.penetration = penetrationOf(i);
    input.penetrationRate = rateOf(i);
    return impactLaw().force(impact, input);
  });

  UserLibraries libraries("");
  std::string error;
  const std::shared_ptr<SharedLibrary> library = libraries.load(kLibrary);
  const auto cnfsub = reinterpret_cast<lodestone_cnfsub>(library->symbol("CNFSUB", error));
  const auto cffsub = reinterpret_cast<lodestone_cffsub>(library->symbol("CFFSUB", error));
  if (!cnfsub || !cffsub) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  timeCalls("IMPACT, C subroutine (CNFSUB)", calls, sink, [&](long i) {
    int id = 1, npar = 4, dflag = 0, iflag = 0;
    double time = 0, gap = -penetrationOf(i), gapdot = -rateOf(i), gapdotdot = 0, result[6] = {0};
    double par[4] = {impact[0], impact[1], impact[2], impact[3]};
    double loci[3] = {0, 0, 0}, ni[3] = {0, 0, -1}, locj[3] = {0, 0, 0}, nj[3] = {0, 0, 1};
    cnfsub(&id, &time, par, &npar, loci, ni, locj, nj, &gap, &gapdot, &gapdotdot, &dflag, &iflag, result);
    return result[0];
  });
  const auto slipOf = [](long i) { return 0.1 * static_cast<double>(i % 997) / 997.0; };
  timeCalls("COULOMB_ON, built-in (mu times N)", calls, sink, [&](long i) {
    return coulombOnLaw().coefficient(coulomb, slipOf(i)) * 10.0;
  });
  timeCalls("COULOMB_ON, C subroutine (CFFSUB)", calls, sink, [&](long i) {
    int id = 1, npar = 4, dflag = 0, iflag = 0;
    double time = 0, nforce = 10, result[6] = {0};
    double par[4] = {coulomb[0], coulomb[1], coulomb[2], coulomb[3]};
    double loci[3] = {0, 0, 0}, locj[3] = {0, 0, 0}, x[3] = {0, 0, 0}, xdot[3] = {slipOf(i), 0, 0};
    cffsub(&id, &time, par, &npar, loci, locj, x, xdot, &nforce, &dflag, &iflag, result);
    return result[0];
  });

  // Whole runs: 64 spheres in a box, 0.3 s, zero crossing off.
  const std::string userLaws = "cnf_type=\"USERCNF\" cnf_param_string=\"USER(1e5, 1.5, 2, 1e-4)\" cnf_dll_name=\"" +
                               kLibrary + "\" cff_type=\"USERCFF\" cff_param_string=\"USER(0.3, 0.25, 0.01, 0.02)\" "
                               "cff_dll_name=\"" + kLibrary + "\"";
  const double builtIn = runPile(benchmark::kPileBuiltInLaws);
  const double user = runPile(userLaws);
  std::printf("pile of 64 spheres, 0.3 s: built-in %.3f s, C subroutines %.3f s, ratio %.3f\n", builtIn, user,
              user / builtIn);
  return sink == 12345.678 ? 1 : 0;
}
