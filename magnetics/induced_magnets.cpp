// Soft magnets among permanent ones: the samples, the permanent magnets' fields and gradients at them, the coupled
// solve, and every magnet's load.
#include "magnetics/induced_magnets.h"

#include <algorithm>
#include <limits>

#include <Eigen/Eigenvalues>

#include "solver/core/thread_scratch.h"

namespace lodestone {

using Kind = MagnetShape::Kind;

SoftMagnet softMagnet(const MagnetShape& shape, double susceptibility, int dipolesPerAxis) {
  SoftMagnet soft;
  soft.shape = shape;
  soft.volume = volume(shape);
  soft.susceptibility = susceptibility;
  switch (shape.kind) {
    case Kind::kSphere: soft.demagnetisingFactors = sphereDemagnetisingFactors(); break;
    case Kind::kCuboid: soft.demagnetisingFactors = prismDemagnetisingFactors(shape.halfExtents); break;
    case Kind::kCylinder:
      soft.demagnetisingFactors = cylinderDemagnetisingFactors(shape.radius, shape.halfLength);
      break;
    case Kind::kEllipsoid: soft.demagnetisingFactors = ellipsoidDemagnetisingFactors(shape.halfExtents); break;
    case Kind::kFrustum:
      soft.demagnetisingFactors =
          frustumDemagnetisingFactors(shape.radius, shape.topRadius, shape.topZ - shape.bottomZ);
      break;
    case Kind::kPolyhedron: break;  // from its samples, below
  }
  if (dipolesPerAxis == 0) {
    soft.samples.push_back(Vector3::Zero());
  } else {
    for (const DipoleSample& sample : dipoleSamples(Magnet{shape, Vector3::Zero(), dipolesPerAxis})) {
      soft.samples.push_back(sample.position);
    }
  }
  if (shape.kind == Kind::kPolyhedron && !soft.samples.empty()) {
    Matrix3 tensor = Matrix3::Zero();
    for (int j = 0; j < 3; ++j) {
      Polyhedron magnetised = *shape.polyhedron;
      magnetised.magnetisation = Vector3::Unit(j);
      const PolyhedronField field(magnetised);
      for (const Vector3& sample : soft.samples) tensor.col(j) -= field(sample);
    }
    tensor = (tensor + tensor.transpose()).eval() / 2;
    tensor /= tensor.trace();
    const Eigen::SelfAdjointEigenSolver<Matrix3> principal(tensor);
    soft.demagnetisingFactors = principal.eigenvalues();
    soft.demagnetisingAxes = principal.eigenvectors();
  }
  return soft;
}

namespace {

// The permanent magnet's H and its gradient at `point` (ground).
// `field` is its closed form (magnet_pair.h, magnetField), `dipoles` its samples when it is sampled.
FieldWithGradient permanentField(const PlacedMagnet& source, const SourceField& field,
                                 const std::vector<DipoleSample>& dipoles, const Vector3& point, long& evaluations) {
  const Matrix3& rotation = source.pose.rotation;
  const Vector3 local = rotation.transpose() * (point - source.pose.position);
  FieldWithGradient inAxes;
  const Magnet& magnet = source.magnet;
  if (magnet.dipolesPerAxis > 0) {
    for (const DipoleSample& sample : dipoles) {
      const FieldWithGradient one = pointDipoleFieldWithGradient(sample.moment, local - sample.position);
      inAxes.field += one.field;
      inAxes.gradient += one.gradient;
    }
  } else if (magnet.shape.kind == Kind::kSphere) {
    inAxes = pointDipoleFieldWithGradient(volume(magnet.shape) * magnet.magnetisation, local);
  } else {
    // Truncation ∝ (step/distance)², round-off ∝ 1e-16·distance/step: 1e-5 of the distance to the surface (not less
    // than 1e-5 of the magnet's size) keeps both near 1e-10 (induced_magnetisation.h).
    const double size = boundingRadius(magnet.shape);
    const double step = 1e-5 * std::max(size, local.norm() - size);
    inAxes = fieldWithGradientByDifferences(field, local, step);
    evaluations += 7;
  }
  return FieldWithGradient{rotation * inAxes.field, rotation * inAxes.gradient * rotation.transpose()};
}

// The permanent magnets' fields at the soft samples where this thread last evaluated them. A Jacobian differences the
// soft magnets one body at a time, and a body's perturbation moves only its own samples: the fields at all the others
// are the last evaluation's, bit for bit, and are taken from it (a box's closed form by differences costs seven
// field evaluations per sample). A field is reused only for the same source (shape, magnetisation, sampling, pose)
// and the same sample position exactly, so results do not depend on what a thread evaluated before.
struct FieldMemo {
  Magnet magnet;
  MagnetPose pose;
  std::vector<Vector3> positions;
  std::vector<FieldWithGradient> fields;
};

bool sameSource(const FieldMemo& memo, const PlacedMagnet& source) {
  const Magnet& a = memo.magnet;
  const Magnet& b = source.magnet;
  return a.shape.kind == b.shape.kind && a.shape.radius == b.shape.radius && a.shape.halfLength == b.shape.halfLength &&
         a.shape.halfExtents == b.shape.halfExtents && a.shape.polyhedron == b.shape.polyhedron &&
         a.shape.topRadius == b.shape.topRadius && a.shape.bottomZ == b.shape.bottomZ && a.shape.topZ == b.shape.topZ &&
         a.magnetisation == b.magnetisation && a.dipolesPerAxis == b.dipolesPerAxis &&
         memo.pose.rotation == source.pose.rotation && memo.pose.position == source.pose.position;
}

// The loads of the open InductionDifferencing scope's base state (its first evaluation on this thread) and what they
// were computed from. A differenced state whose samples sit where the base's did with the same polarisabilities, in
// the same fields, has the base's loads exactly: a body turned about its one isotropic sample (a sphere's, a cube's)
// is such a state, four of the seven a Jacobian differences per body.
struct BaseLoads {
  long scope = 0;  // InductionDifferencing::current() when they were kept; 0: none
  std::vector<Vector3> positions, softCentres, permanentCentres;
  std::vector<Matrix3> polarisabilities;
  std::vector<std::vector<FieldWithGradient>> fields;
  InducedMagnetLoads loads;
};

bool sameFields(const std::vector<std::vector<FieldWithGradient>>& a,
                const std::vector<std::vector<FieldWithGradient>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].size() != b[k].size()) return false;
    for (size_t i = 0; i < a[k].size(); ++i) {
      if (a[k][i].field != b[k][i].field || a[k][i].gradient != b[k][i].gradient) return false;
    }
  }
  return true;
}

}  // namespace

InducedMagnetLoads inducedMagnetLoads(const std::vector<PlacedMagnet>& permanent, const std::vector<SoftMagnet>& soft,
                                      const std::vector<MagnetPose>& softPoses, const InductionSettings& settings) {
  InducedMagnetLoads result;
  result.permanent.resize(permanent.size());
  result.soft.resize(soft.size());
  result.softMoments.assign(soft.size(), Vector3::Zero());

  // The soft magnets' samples in ground, each soft magnet a group of its own.
  std::vector<SoftSample> samples;
  std::vector<size_t> owner;  // the soft magnet of each sample
  for (size_t s = 0; s < soft.size(); ++s) {
    const MagnetPose& pose = softPoses[s];
    const double share = soft[s].volume / static_cast<double>(soft[s].samples.size());
    for (const Vector3& position : soft[s].samples) {
      SoftSample sample;
      sample.position = pose.position + pose.rotation * position;
      sample.volume = share;
      sample.susceptibility = soft[s].susceptibility;
      sample.demagnetisingFactors = soft[s].demagnetisingFactors;
      sample.axes = pose.rotation * soft[s].demagnetisingAxes;
      sample.group = static_cast<int>(s);
      samples.push_back(sample);
      owner.push_back(s);
    }
  }

  // Each permanent magnet's field and gradient at each sample: [k][i].
  std::vector<std::vector<FieldWithGradient>> fields(permanent.size());
  std::vector<FieldWithGradient> total(samples.size());
  std::vector<Vector3> totalField(samples.size(), Vector3::Zero());
  std::vector<FieldMemo>& memos = threadScratch<std::vector<FieldMemo>, struct InducedMagnetFieldMemos>();
  if (memos.size() < permanent.size()) memos.resize(permanent.size());
  for (size_t k = 0; k < permanent.size(); ++k) {
    const SourceField field = magnetField(permanent[k].magnet);
    const std::vector<DipoleSample> dipoles =
        permanent[k].magnet.dipolesPerAxis > 0 ? dipoleSamples(permanent[k].magnet) : std::vector<DipoleSample>{};
    FieldMemo& memo = memos[k];
    if (!sameSource(memo, permanent[k])) {
      memo = FieldMemo{permanent[k].magnet, permanent[k].pose, {}, {}};
    }
    memo.positions.resize(samples.size(), Vector3::Constant(std::numeric_limits<double>::quiet_NaN()));
    memo.fields.resize(samples.size());
    fields[k].resize(samples.size());
    for (size_t i = 0; i < samples.size(); ++i) {
      if (memo.positions[i] != samples[i].position) {  // a NaN never equals: a new entry is always evaluated
        memo.fields[i] = permanentField(permanent[k], field, dipoles, samples[i].position, result.fieldEvaluations);
        memo.positions[i] = samples[i].position;
      }
      fields[k][i] = memo.fields[i];
      total[i].field += fields[k][i].field;
      total[i].gradient += fields[k][i].gradient;
      totalField[i] = total[i].field;
    }
  }

  // The differencing scope's base loads, when this state is the base's in all that decides them.
  BaseLoads& base = threadScratch<BaseLoads, struct InducedMagnetBaseLoads>();
  const long scope = InductionDifferencing::current();
  std::vector<Vector3> positions, softCentres, permanentCentres;
  std::vector<Matrix3> polarisabilities;
  if (scope != 0) {
    for (const SoftSample& sample : samples) {
      positions.push_back(sample.position);
      polarisabilities.push_back(sample.volume * effectiveSusceptibility(sample));
    }
    for (const MagnetPose& pose : softPoses) softCentres.push_back(pose.position);
    for (const PlacedMagnet& magnet : permanent) permanentCentres.push_back(magnet.pose.position);
    if (base.scope == scope && positions == base.positions && polarisabilities == base.polarisabilities &&
        softCentres == base.softCentres && permanentCentres == base.permanentCentres &&
        sameFields(fields, base.fields)) {
      InducedMagnetLoads same = base.loads;
      same.fieldEvaluations = result.fieldEvaluations;
      return same;
    }
  }

  result.induction = solveInducedMagnetisation(samples, totalField, Vector3::Zero(), settings);
  const std::vector<Vector3>& moments = result.induction.moments;
  const InducedForces onSamples = inducedSampleForces(samples, moments, total, Vector3::Zero(), settings);

  for (size_t i = 0; i < samples.size(); ++i) {
    const size_t s = owner[i];
    const Vector3 lever = samples[i].position - softPoses[s].position;
    result.softMoments[s] += moments[i];
    result.soft[s].force += onSamples.forces[i];
    result.soft[s].torque += onSamples.torques[i] + lever.cross(onSamples.forces[i]);
    // The reaction of each permanent magnet's pull on the sample, pair by pair.
    for (size_t k = 0; k < permanent.size(); ++k) {
      const Vector3 force = kVacuumPermeability * fields[k][i].gradient.transpose() * moments[i];
      const Vector3 torque = kVacuumPermeability * moments[i].cross(fields[k][i].field);
      result.permanent[k].force -= force;
      result.permanent[k].torque -= torque + (samples[i].position - permanent[k].pose.position).cross(force);
    }
  }
  if (scope != 0 && base.scope != scope) {
    base = BaseLoads{scope, std::move(positions), std::move(softCentres), std::move(permanentCentres),
                     std::move(polarisabilities), std::move(fields), result};
  }
  return result;
}

}  // namespace lodestone
