// What a user subroutine costs: nanoseconds per call of the built-in IMPACT and COULOMB_ON laws and of the same
// laws as C subroutines (models/usersub/impact_coulomb.c) and Python ones (impact_coulomb.py), called through
// callSubroutine as the evaluator calls them, IMPACT as a named law (tests/fixtures/named_laws.c) and LuGre friction
// (a named law with state), and the whole-run wall time of a 64-sphere pile with each. Prints figures; asserts
// nothing.
//
//   usersub_benchmark [calls]     (default 10000000)
//
// Measured on the 2-core development VM (RelWithDebInfo, ±30% run to run), ns per call: IMPACT built-in 33, named C
// law 48, C subroutine 64, Python 980; COULOMB_ON built-in 4, C 45, Python 910; LuGre (named, with state) 116. Pile
// of 64 spheres, 0.3 s: built-in 2.11 s, C subroutines 2.26 s (ratio 1.07), Python 6.18 s (ratio 2.9), named IMPACT
// 2.01 s (0.95: within the noise of 1); with LuGre instead of COULOMB_ON 1.24 s (another law: the pile comes to rest
// sooner, so the steps are longer).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "deck_model.h"
#include "lodestone/usersub.h"
#include "pile_deck.h"
#include "plugins/builtin/builtin_laws.h"
#include "plugins/named_laws.h"
#include "plugins/python_scripts.h"
#include "plugins/user_library.h"
#include "plugins/user_subroutine.h"
#include "solver/driver/simulation.h"

using namespace lodestone;

namespace {

const std::string kLibrary = std::string(LODESTONE_BINARY_DIR) + "/lib/usersub_examples.so";
const std::string kScript = std::string(LODESTONE_SOURCE_DIR) + "/models/usersub/impact_coulomb.py";

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
  Model model = benchmark::modelOfDeck(benchmark::pileDeck(64, false, laws, 0.3), "pile.xml");
  Simulation simulation(std::move(model));
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

  // Named laws, called through their descriptors as the evaluator calls them.
  const LawLibraryProblems problems = loadLawLibraries(std::string(LODESTONE_BINARY_DIR) + "/lib/named_laws.so:" +
                                                       LODESTONE_BINARY_DIR + "/lib/lugre_friction.so");
  if (!problems.errors.empty()) {
    std::fprintf(stderr, "%s\n", problems.errors.front().c_str());
    return 1;
  }
  const lodestone_law* impactNamed = findNormalLaw("IMPACT_NAMED")->named;
  const std::vector<double> impactNamedValues{1e7, 1.5, 20, 1e-4, 0};
  timeCalls("IMPACT, named C law", calls, sink, [&](long i) {
    lodestone_contact_point point{};
    point.penetration = penetrationOf(i);
    point.penetration_rate = rateOf(i);
    return impactNamed->normal_force(impactNamed, impactNamedValues.data(), &point, nullptr);
  });

  // The subroutines as an element holds them, called through callSubroutine as the evaluator calls them.
  UserLibraries libraries("");
  const std::shared_ptr<SharedLibrary> library = libraries.load(kLibrary);
  PythonScripts scripts("");
  const std::shared_ptr<const PythonScript> script = scripts.load(kScript);
  const auto subroutine = [&](const std::string& function, const std::vector<double>& parameters, bool python) {
    UserSubroutine routine;
    routine.function = function;
    routine.parameters = parameters;
    if (python) {
      routine.file = script->path();
      routine.python = scriptFunction(script, function);
    } else {
      std::string error;
      routine.file = library->path();
      routine.keepLoaded = library;
      routine.address = library->symbol(function, error);
      if (!routine.address) throw std::runtime_error(error);
    }
    return routine;
  };
  const UserSubroutine cnfsubC = subroutine("CNFSUB", impact, false), cnfsubPython = subroutine("CNFSUB", impact, true);
  const UserSubroutine cffsubC = subroutine("CFFSUB", coulomb, false), cffsubPython = subroutine("CFFSUB", coulomb, true);
  const auto normalCall = [&](long i) {
    NormalCall call;
    call.id = 1;
    call.gap = -penetrationOf(i);
    call.gapdot = -rateOf(i);
    call.ni = {0, 0, -1};
    call.nj = {0, 0, 1};
    return call;
  };
  timeCalls("IMPACT, C subroutine (CNFSUB)", calls, sink, [&](long i) { return callSubroutine(cnfsubC, normalCall(i)); });
  timeCalls("IMPACT, Python subroutine (CNFSUB)", calls / 20, sink,
            [&](long i) { return callSubroutine(cnfsubPython, normalCall(i)); });
  const auto slipOf = [](long i) { return 0.1 * static_cast<double>(i % 997) / 997.0; };
  const auto frictionCall = [&](long i) {
    FrictionCall call;
    call.id = 1;
    call.xdot = {slipOf(i), 0, 0};
    call.nforce = 10;
    return call;
  };
  timeCalls("COULOMB_ON, built-in (mu times N)", calls, sink, [&](long i) {
    return coulombOnLaw().coefficient(coulomb, slipOf(i)) * 10.0;
  });
  timeCalls("COULOMB_ON, C subroutine (CFFSUB)", calls, sink,
            [&](long i) { return callSubroutine(cffsubC, frictionCall(i))[0]; });
  timeCalls("COULOMB_ON, Python subroutine (CFFSUB)", calls / 20, sink,
            [&](long i) { return callSubroutine(cffsubPython, frictionCall(i))[0]; });
  const lodestone_law* lugre = findFrictionLaw("LUGRE")->named;
  const std::vector<double> lugreValues{0.3, 0.25, 0.01, 1e5, 200, 0};
  timeCalls("LUGRE, named C law with state", calls, sink, [&](long i) {
    lodestone_contact_point point{};
    point.normal[2] = 1;
    point.slip_velocity[0] = slipOf(i);
    point.normal_force = 10;
    point.elapsed = 1e-4;
    const double state[3] = {1e-6, 0, 0};
    double force[3];
    lugre->friction_force(lugre, lugreValues.data(), &point, state, force);
    return force[0];
  });

  // Whole runs: 64 spheres in a box, 0.3 s, zero crossing off.
  const std::string userLaws = "cnf_type=\"USERCNF\" cnf_param_string=\"USER(1e5, 1.5, 2, 1e-4)\" cnf_dll_name=\"" +
                               kLibrary + "\" cff_type=\"USERCFF\" cff_param_string=\"USER(0.3, 0.25, 0.01, 0.02)\" "
                               "cff_dll_name=\"" + kLibrary + "\"";
  const std::string pythonLaws = "script_name=\"" + kScript + "\" interpreter=\"PYTHON\" cnf_type=\"USERCNF\" "
                                 "cnf_param_string=\"USER(1e5, 1.5, 2, 1e-4)\" cff_type=\"USERCFF\" "
                                 "cff_param_string=\"USER(0.3, 0.25, 0.01, 0.02)\"";
  // The named IMPACT with the built-in friction computes exactly what the built-in deck does; LuGre is another law.
  std::string namedLaws = benchmark::kPileBuiltInLaws;
  namedLaws.replace(namedLaws.find("\"IMPACT\""), 8, "\"IMPACT_NAMED\"");
  std::string lugreLaws = benchmark::kPileBuiltInLaws;
  lugreLaws.replace(lugreLaws.find("cff_type"), std::string::npos,
                    "cff_type=\"LUGRE\" mu_static=\"0.3\" mu_dynamic=\"0.25\" stribeck_vel=\"0.01\" "
                    "bristle_stiffness=\"1e4\" bristle_damping=\"10\"");
  const double builtIn = runPile(benchmark::kPileBuiltInLaws);
  const double user = runPile(userLaws);
  const double python = runPile(pythonLaws);
  const double named = runPile(namedLaws);
  const double lugrePile = runPile(lugreLaws);
  std::printf("pile of 64 spheres, 0.3 s: built-in %.3f s, C subroutines %.3f s (ratio %.3f), Python %.3f s "
              "(ratio %.3f), named IMPACT %.3f s (ratio %.3f); with LuGre friction %.3f s (ratio %.3f)\n",
              builtIn, user, user / builtIn, python, python / builtIn, named, named / builtIn, lugrePile,
              lugrePile / builtIn);
  return sink == 12345.678 ? 1 : 0;
}
