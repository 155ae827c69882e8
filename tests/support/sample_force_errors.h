// How far an approximation of the forces on many dipole samples is from a reference, per sample and per magnet: what
// the dipole-sample tests assert and their benchmark prints.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "magnetics/dipole_samples.h"

namespace lodestone {

struct SampleForceErrors {
  double rms = 0;      // √(Σ|ΔFᵢ|² / Σ|Fᵢ|²) over the samples
  double max = 0;      // maxᵢ |ΔFᵢ| / |Fᵢ|: large where a sample's neighbours' pulls nearly cancel
  double magnets = 0;  // √(Σ|ΔF_g|² / Σ|F_g|²) over the groups' net forces F_g = Σ_{i in g} Fᵢ
};

inline SampleForceErrors sampleForceErrors(const std::vector<GroupedDipoleSample>& samples,
                                           const std::vector<SampleInteraction>& values,
                                           const std::vector<SampleInteraction>& reference) {
  SampleForceErrors errors;
  int groups = 0;
  for (const GroupedDipoleSample& sample : samples) groups = std::max(groups, sample.group + 1);
  double squaredErrors = 0, squaredForces = 0;
  std::vector<Vector3> netError(static_cast<size_t>(groups), Vector3::Zero()), net(netError);
  for (size_t i = 0; i < values.size(); ++i) {
    const Vector3 error = values[i].force - reference[i].force;
    squaredErrors += error.squaredNorm();
    squaredForces += reference[i].force.squaredNorm();
    errors.max = std::max(errors.max, error.norm() / reference[i].force.norm());
    netError[static_cast<size_t>(samples[i].group)] += error;
    net[static_cast<size_t>(samples[i].group)] += reference[i].force;
  }
  errors.rms = std::sqrt(squaredErrors / squaredForces);
  double squaredNetErrors = 0, squaredNet = 0;
  for (size_t g = 0; g < net.size(); ++g) {
    squaredNetErrors += netError[g].squaredNorm();
    squaredNet += net[g].squaredNorm();
  }
  errors.magnets = std::sqrt(squaredNetErrors / squaredNet);
  return errors;
}

}  // namespace lodestone
