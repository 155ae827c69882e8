// Soft (linear χ) magnets among permanent ones: every soft magnet's induced moment solved together with all the
// others' (induced_magnetisation.h: the mutual induction of Westhofen et al. 2024, Eq. 18, as one linear system), in
// the permanent magnets' closed-form fields, and the force and torque that every magnet — soft or permanent — feels.
// The permanent magnets' forces on each other are not here: they are magnet_pair.h's, pair by pair.
#pragma once

#include <vector>

#include "magnetics/induced_magnetisation.h"
#include "magnetics/magnet_pair.h"

namespace lodestone {

// A permanent magnet placed in ground; its moment in ground is pose.rotation·M·V.
struct PlacedMagnet {
  Magnet magnet;
  MagnetPose pose;
};

// A soft magnet: its shape, χ (dimensionless, SI; > −1, ≠ 0) and where its dipole samples are in its own axes.
struct SoftMagnet {
  MagnetShape shape;
  double susceptibility = 0;
  // The shape's demagnetising factors along `demagnetisingAxes` (columns, in the magnet's axes): every sample takes
  // them, as the samples of one body do not induce each other (induced_magnetisation.h, SoftSample).
  Vector3 demagnetisingFactors = sphereDemagnetisingFactors();
  Matrix3 demagnetisingAxes = Matrix3::Identity();
  std::vector<Vector3> samples;  // in its axes; each stands for an equal share of the volume
  double volume = 0;             // the shape's, kept: a mesh's is a sum over its triangles
};

// One sample at the centre (dipolesPerAxis 0): exact for a sphere in a uniform field, and for an ellipsoid; or the
// centres of the n×n×n grid's cells over the shape's bounding box that are inside it (magnet_pair.h, dipoleSamples),
// the paper's sampling. Demagnetising factors: a sphere's 1/3, a cuboid's, a cylinder's and an ellipsoid's in closed
// form (an ellipsoid's exact for every sample: its demagnetising field is uniform inside it). A
// polyhedron (a mesh) must be sampled (dipolesPerAxis > 0; the caller refuses 0): its demagnetising tensor is the mean
// of −H over its samples for M = each unit vector in turn (PolyhedronField holds the field inside), by the midpoint
// rule over the same cells, made symmetric and scaled to trace 1 (the sum rule, exact); its eigenvectors are the axes.
// Measured on a 1:2:3 box as 12 triangles against Aharoni's factors: tests/unit/magnetics_induced_magnets_test.cpp.
SoftMagnet softMagnet(const MagnetShape& shape, double susceptibility, int dipolesPerAxis);

// What a magnet feels, in ground: a force and a torque about its centre (its pose's position).
struct MagnetLoad {
  Vector3 force = Vector3::Zero();
  Vector3 torque = Vector3::Zero();
};

struct InducedMagnetLoads {
  std::vector<MagnetLoad> permanent;  // per permanent magnet: the reactions of the soft magnets' pull on it
  std::vector<MagnetLoad> soft;       // per soft magnet: from every permanent magnet and every other soft one
  std::vector<Vector3> softMoments;   // per soft magnet: its induced moment in ground, the sum over its samples
  InducedMagnetisation induction;     // the coupled solve (its outcome, iterations and residual)
  long fieldEvaluations = 0;          // of the permanent magnets' closed forms
};

// The soft magnets at `softPoses` (one per soft magnet) in the permanent magnets' field, all in SI (μ0 =
// kVacuumPermeability) or any consistent length unit with forces scaled by the caller. Each soft sample i gets the
// permanent magnets' field H_k(x_i) and its gradient: a sphere's (unsampled) and a sampled magnet's in closed form, the
// others' by central differences of the closed form (induced_magnetisation.h, fieldWithGradientByDifferences, step
// 1e-5 of the distance to the source's surface). The induced moments m_i solve the coupled system; sample i then feels
// F_i = μ0·∇(m_i·H)(x_i) and T_i = μ0·m_i × H(x_i) from the permanent magnets and from the samples of the other soft
// magnets (dipole–dipole), and permanent magnet k feels, per sample, −F_ik and about its centre c_k
// −(T_ik + (x_i − c_k) × F_ik): Newton's third law, pair by pair, so that the forces and the moments about any point
// add up to zero over all the magnets.
InducedMagnetLoads inducedMagnetLoads(const std::vector<PlacedMagnet>& permanent, const std::vector<SoftMagnet>& soft,
                                      const std::vector<MagnetPose>& softPoses, const InductionSettings& settings);

}  // namespace lodestone
