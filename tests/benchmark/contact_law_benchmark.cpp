// Cost of one evaluation of each built-in contact law (normal force, friction coefficient, DIPOLE's field), in
// nanoseconds over ~10⁷ calls with varying inputs. Prints figures; asserts nothing.
//
//   contact_law_benchmark [calls]     (default 10000000)
//
// Measured on the 2-core development VM (Release, machine shared with two other builds, load ≈ 3.5, so ±30%),
// ns per call, two runs: IMPACT 17–25, POISSON 7–8, VOLUME 26–29, LINEAR 4–6, LINEAR_LIMITED 3–6,
// HUNT_CROSSLEY 40–52 (q ≠ 1: three pow), SMOOTH 4–5, DIPOLE force 6–8; COULOMB_ON 3–4,
// COULOMB_DYNAMICONLY 3–4, SMOOTH_STICK_SLIP 10–14 (exp); DIPOLE field 61–96 (includes looking the force
// unit up by name for μ0 on every call).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "plugins/builtin/builtin_laws.h"
#include "plugins/contact_law.h"

using namespace lodestone;

namespace {

// Representative values for every parameter: the default where there is one, else a value inside the range.
std::vector<double> typicalValues(const std::vector<LawParameter>& parameters) {
  std::vector<double> values;
  for (const LawParameter& parameter : parameters) {
    for (int k = 0; k < parameter.size; ++k) {
      double value = parameter.required ? 1.0 : parameter.defaultValue;
      if (parameter.name == "stiffness" || parameter.name == "penalty" || parameter.name == "kn") value = 1e5;
      if (parameter.name == "exponent" && parameter.required) value = 1.5;
      if (parameter.name == "damping" || parameter.name == "dp_nratio") value = 10;
      if (parameter.name == "restitution_coef") value = 0.5;
      if (parameter.name.find("trans_vel") != std::string::npos || parameter.name == "critical_velocity") value = 0.1;
      if (parameter.name == "friction_trans_vel") value = 0.2;
      if (parameter.name == "velocity_exponent") value = 0.8;  // not 1: the general pow path
      if (parameter.name == "dmax" || parameter.name == "transition_width" || parameter.name == "dipole_cap") value = 1e-3;
      values.push_back(value);
    }
  }
  return values;
}

constexpr int kInputCount = 4096;  // a power of two: the index wraps with a mask

// Calls `call(i)` `calls` times, prints nanoseconds per call, and adds the results to `sink` so the optimiser
// cannot drop the calls.
template <class Call>
void timeCalls(const std::string& label, long calls, volatile double& sink, Call call) {
  const auto start = std::chrono::steady_clock::now();
  double sum = 0;
  for (long i = 0; i < calls; ++i) sum += call(i & (kInputCount - 1));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  sink = sink + sum;
  std::printf("%-22s %10.2f\n", label.c_str(), 1e9 * seconds / static_cast<double>(calls));
}

}  // namespace

int main(int argc, char** argv) {
  const long calls = argc > 1 ? std::atol(argv[1]) : 10000000L;
  // Inputs drawn once, so the timed loops measure the laws and not the random generator. About a third of the
  // penetrations are ≤ 0, as when contact points are tested near onset.
  std::mt19937 random(7u);
  std::uniform_real_distribution<double> penetration(-5e-3, 1e-2), rate(-10, 10), speed(0, 1), area(0, 1e-4);
  std::vector<NormalInput> inputs(kInputCount);
  std::vector<double> speeds(kInputCount);
  for (int i = 0; i < kInputCount; ++i) {
    inputs[i] = {.penetration = penetration(random), .penetrationRate = rate(random), .area = area(random),
                 .effectiveMass = 2.0};
    speeds[i] = speed(random);
  }
  // Summing every result into a volatile keeps the optimiser from dropping the calls.
  volatile double sink = 0;

  std::printf("%-22s %10s\n", "law", "ns/call");
  for (const NormalLaw* law : normalLaws()) {
    const std::vector<double> values = typicalValues(law->parameters);
    timeCalls(law->keyword + " force", calls, sink, [&](long i) { return law->force(values, inputs[i]); });
  }
  for (const FrictionLaw* law : frictionLaws()) {
    if (!law->coefficient) {
      std::printf("%-22s %10s\n", (law->keyword + " mu").c_str(), "(none)");
      continue;
    }
    const std::vector<double> values = typicalValues(law->parameters);
    timeCalls(law->keyword + " mu", calls, sink, [&](long i) { return law->coefficient(values, speeds[i]); });
  }
  {
    // DIPOLE's field, with the graphic J wandering around I and both turned: a tenth of the calls, since it is
    // called per graphic pair rather than per contact point.
    const NormalLaw& dipole = dipoleLaw();
    std::vector<double> values = typicalValues(dipole.parameters);
    std::vector<FieldInput> fields(kInputCount);
    std::uniform_real_distribution<double> position(-0.05, 0.05), angle(-3, 3);
    for (FieldInput& field : fields) {
      field.graphicJ.position = Vector3(position(random), position(random), position(random));
      field.graphicI.rotation = Eigen::AngleAxisd(angle(random), Vector3::UnitZ()).toRotationMatrix();
      field.graphicJ.rotation = Eigen::AngleAxisd(angle(random), Vector3::UnitX()).toRotationMatrix();
      field.units.length = "MILLIMETER";
    }
    FieldOutput output;
    timeCalls("DIPOLE field", calls / 10, sink, [&](long i) {
      dipole.field(values, fields[i], output);
      return output.forceOnJ.x() + output.momentOnI.y();
    });
  }
  std::printf("(checksum %g)\n", static_cast<double>(sink));
  return 0;
}
