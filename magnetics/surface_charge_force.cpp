// The target's faces cut into panels, refined where the source's field varies fastest over them: near the source's
// edges and corners when the gap is small compared with the faces.
#include "magnetics/surface_charge_force.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "solver/core/quadrature.h"

namespace lodestone {
namespace {

using Wrench = Eigen::Matrix<double, 6, 1>;  // force, then torque

// The 7-point Gauss–Legendre rule on [−1, 1], from the Gauss–Kronrod table the 1-D quadrature uses.
struct GaussRule {
  std::array<double, 7> nodes{}, weights{};
  GaussRule() {
    using namespace gauss_kronrod;
    for (size_t k = 0; k < 3; ++k) {
      nodes[k] = -kNodes[2 * k + 1];
      nodes[6 - k] = kNodes[2 * k + 1];
      weights[k] = weights[6 - k] = kGaussWeights[k];
    }
    nodes[3] = 0;
    weights[3] = kGaussWeights[3];
  }
};
const GaussRule kGauss;

// A face's point at (s, t) ∈ [−1, 1]², relative to the target's centre, and the area element dS/(ds·dt) there. A disc's
// (s, t) are its radius and angle, so that its rule is radial Gauss–Legendre × angular; dS = r·dr·dθ vanishes at the
// centre, where polar coordinates are singular, and the integrand stays smooth. A triangle's (s, t) are those of the
// square collapsed onto it, and its dS vanishes likewise at the corner the side s = −1 collapses onto. An ellipsoid's
// octant's (s, t) are its θ and φ, a mantle quarter's its φ and τ, and their `area` is σ·dS/(ds·dt), the charge varying
// over them.
struct FacePoint {
  Vector3 lever;
  double area = 0;
};

// A curved face's angles run over a quarter turn: dθ = dφ = (π/4)·ds.
constexpr double kQuarterTurn = 0.25 * std::numbers::pi;

// A curved face's r_s × r_t points outward when (halfU, halfV, halfW) turn right-handed, inward otherwise.
double outwardSign(const ChargedFace& face) { return face.halfU.dot(face.halfV.cross(face.halfW)) > 0 ? 1.0 : -1.0; }
FacePoint pointOf(const ChargedFace& face, double s, double t) {
  switch (face.shape) {
    case ChargedFace::Shape::kRectangle:
      return {face.centre + s * face.halfU + t * face.halfV, face.halfU.norm() * face.halfV.norm()};
    case ChargedFace::Shape::kDisc: {
      const double q = 0.5 * (s + 1), angle = std::numbers::pi * (t + 1);  // q: the fraction of the radius
      return {face.centre + q * (std::cos(angle) * face.halfU + std::sin(angle) * face.halfV),
              face.halfU.norm() * face.halfV.norm() * q * 0.5 * std::numbers::pi};
    }
    case ChargedFace::Shape::kTriangle: {
      const double a = 0.5 * (s + 1), b = 0.5 * (t + 1);  // da·db = ds·dt/4
      return {face.centre + a * ((1 - b) * face.halfU + b * face.halfV),
              face.halfU.cross(face.halfV).norm() * a * 0.25};
    }
    case ChargedFace::Shape::kEllipsoidOctant: {
      const double theta = kQuarterTurn * (s + 1), phi = kQuarterTurn * (t + 1);
      const double sinTheta = std::sin(theta), cosTheta = std::cos(theta);
      const double sinPhi = std::sin(phi), cosPhi = std::cos(phi);
      const Vector3 across = cosPhi * face.halfU + sinPhi * face.halfV;
      const Vector3 alongTheta = cosTheta * across - sinTheta * face.halfW;
      const Vector3 alongPhi = sinTheta * (cosPhi * face.halfV - sinPhi * face.halfU);
      return {face.centre + sinTheta * across + cosTheta * face.halfW,
              outwardSign(face) * face.magnetisation.dot(alongTheta.cross(alongPhi)) * kQuarterTurn * kQuarterTurn};
    }
    case ChargedFace::Shape::kMantleQuarter: {
      // A cone's radius is (1 + taper·τ) times the middle's; a cylinder's taper is 0, and its factors are exactly 1.
      const double phi = kQuarterTurn * (s + 1), scale = 1 + face.taper * t;
      const Vector3 across = std::cos(phi) * face.halfU + std::sin(phi) * face.halfV;
      const Vector3 alongPhi = scale * kQuarterTurn * (std::cos(phi) * face.halfV - std::sin(phi) * face.halfU);
      const Vector3 alongTau = face.taper == 0 ? face.halfW : Vector3(face.taper * across + face.halfW);
      return {face.centre + scale * across + t * face.halfW,
              outwardSign(face) * face.magnetisation.dot(alongPhi.cross(alongTau))};
    }
  }
  return {};
}

// The factor of a face's rule that its FacePoint's `area` leaves out: a flat face's uniform σ.
double uniformCharge(const ChargedFace& face) {
  const bool curved =
      face.shape == ChargedFace::Shape::kEllipsoidOctant || face.shape == ChargedFace::Shape::kMantleQuarter;
  return curved ? 1.0 : face.charge;
}

// A rectangle [s0, s1] × [t0, t1] of a face's coordinates.
struct Patch {
  double s0 = -1, s1 = 1, t0 = -1, t1 = 1;
  // The lower (which = 0) or upper half, cut across s (at the middle of [s0, s1]) or across t.
  Patch half(bool acrossS, int which) const {
    Patch part = *this;
    double& from = acrossS ? part.s0 : part.t0;
    double& to = acrossS ? part.s1 : part.t1;
    const double middle = 0.5 * (from + to);
    (which == 0 ? to : from) = middle;
    return part;
  }
};

struct Panel {
  int face = 0;
  Patch patch;
  Wrench value;         // the sum of the two halves' rules
  double error = 0;     // FaceQuadrature::size(value − the panel's own rule)
  bool acrossS = true;  // which way the halves were cut
  Wrench halves[2];     // the halves' rules, kept so that splitting the panel reuses them
};

class FaceQuadrature {
 public:
  FaceQuadrature(const SourceField& source, const Vector3& position, const std::vector<ChargedFace>& faces,
                 double torqueLength)
      : source_(source), position_(position), torqueLength_(torqueLength), faces_(faces) {}

  size_t faceCount() const { return faces_.size(); }
  long evaluations() const { return evaluations_; }

  // |δF| + |δT|/ℓ: one number for an error in force and torque together.
  double size(const Wrench& w) const { return w.head<3>().norm() + w.tail<3>().norm() / torqueLength_; }

  // A panel from its patch and its own rule's value: both ways of halving it are tried, and the one that changes the
  // value more is kept, so a panel lying along a source edge's line is cut across that line.
  Panel panel(int face, const Patch& patch, const Wrench& ownRule) {
    Panel best;
    best.face = face;
    best.patch = patch;
    best.error = -1;
    for (const bool acrossS : {true, false}) {
      const Wrench first = rule(face, patch.half(acrossS, 0)), second = rule(face, patch.half(acrossS, 1));
      const double error = size(first + second - ownRule);
      if (error > best.error) {
        best.error = error;
        best.acrossS = acrossS;
        best.value = first + second;
        best.halves[0] = first;
        best.halves[1] = second;
      }
    }
    return best;
  }

  // μ0·σ·H and its moment about the target's centre, integrated over the patch by the 7×7 Gauss rule.
  Wrench rule(int faceIndex, const Patch& patch) {
    const ChargedFace& face = faces_[faceIndex];
    const double halfS = 0.5 * (patch.s1 - patch.s0), halfT = 0.5 * (patch.t1 - patch.t0);
    const double middleS = 0.5 * (patch.s0 + patch.s1), middleT = 0.5 * (patch.t0 + patch.t1);
    Vector3 force = Vector3::Zero(), torque = Vector3::Zero();
    for (size_t a = 0; a < kGauss.nodes.size(); ++a) {
      for (size_t b = 0; b < kGauss.nodes.size(); ++b) {
        const FacePoint at = pointOf(face, middleS + halfS * kGauss.nodes[a], middleT + halfT * kGauss.nodes[b]);
        const Vector3 weighted = kGauss.weights[a] * kGauss.weights[b] * at.area * source_(position_ + at.lever);
        force += weighted;
        torque += at.lever.cross(weighted);
      }
    }
    evaluations_ += static_cast<long>(kGauss.nodes.size() * kGauss.nodes.size());
    // The patch's ds·dt is halfS·halfT times the rule's [−1, 1]².
    const double scale = kVacuumPermeability * uniformCharge(face) * halfS * halfT;
    Wrench result;
    result << scale * force, scale * torque;
    return result;
  }

 private:
  const SourceField& source_;
  Vector3 position_;
  double torqueLength_;  // ℓ
  const std::vector<ChargedFace>& faces_;
  long evaluations_ = 0;
};

// A budget, not a target: 1e-10 at a 0.1 mm gap between 0.1 m cubes takes about 700 panels; 20000 cost ≈ 4·10⁶ field
// evaluations, ≈ 2 s.
constexpr size_t kMaxPanels = 20000;

}  // namespace

namespace {

// The panels of a layout, each by its two halves' rules as the adaptive integration summed them.
MagnetInteraction integrateOverLayout(FaceQuadrature& quadrature, const QuadratureLayout& layout) {
  Wrench total = Wrench::Zero();
  for (const QuadraturePanel& panel : layout.panels) {
    const Patch patch{panel.s0, panel.s1, panel.t0, panel.t1};
    total += quadrature.rule(panel.face, patch.half(panel.acrossS, 0)) +
             quadrature.rule(panel.face, patch.half(panel.acrossS, 1));
  }
  MagnetInteraction result;
  result.force = total.head<3>();
  result.torque = total.tail<3>();
  result.errorEstimate = layout.errorEstimate;
  result.fieldEvaluations = quadrature.evaluations();
  return result;
}

}  // namespace

MagnetInteraction chargedSurfaceInteraction(const SourceField& source, const Vector3& targetCentre,
                                            const std::vector<ChargedFace>& faces, double torqueLength,
                                            double relativeAccuracy, QuadratureLayout* layout) {
  FaceQuadrature quadrature(source, targetCentre, faces, torqueLength);
  if (layout && layout->reuse) return integrateOverLayout(quadrature, *layout);
  const auto lessAccurate = [](const Panel& a, const Panel& b) { return a.error < b.error; };
  std::vector<Panel> panels;  // a heap, the panel with the largest error on top
  Wrench total = Wrench::Zero();
  double error = 0, magnitude = 0;
  for (size_t face = 0; face < quadrature.faceCount(); ++face) {
    const Patch whole;
    panels.push_back(quadrature.panel(static_cast<int>(face), whole, quadrature.rule(static_cast<int>(face), whole)));
    total += panels.back().value;
    error += panels.back().error;
    magnitude += quadrature.size(panels.back().value);
  }
  std::make_heap(panels.begin(), panels.end(), lessAccurate);

  MagnetInteraction result;
  // The faces' contributions can cancel to a total far below each of them (a force that vanishes by symmetry): the
  // accuracy asked for is then relative to the faces' own, since round-off is.
  const auto allowedError = [&] { return std::max(relativeAccuracy * quadrature.size(total), 1e-14 * magnitude); };
  while (!panels.empty() && error > allowedError()) {
    if (panels.size() >= kMaxPanels) {
      result.converged = false;
      break;
    }
    std::pop_heap(panels.begin(), panels.end(), lessAccurate);
    const Panel worst = panels.back();
    panels.pop_back();
    total -= worst.value;
    error -= worst.error;
    for (int which = 0; which < 2; ++which) {
      panels.push_back(quadrature.panel(worst.face, worst.patch.half(worst.acrossS, which), worst.halves[which]));
      total += panels.back().value;
      error += panels.back().error;
      std::push_heap(panels.begin(), panels.end(), lessAccurate);
    }
  }
  // The running sums drift by round-off over many splits: add the panels afresh.
  total.setZero();
  error = 0;
  for (const Panel& panel : panels) {
    total += panel.value;
    error += panel.error;
  }
  result.force = total.head<3>();
  result.torque = total.tail<3>();
  result.errorEstimate = error;
  result.fieldEvaluations = quadrature.evaluations();
  if (layout) {
    layout->panels.clear();
    for (const Panel& panel : panels) {
      layout->panels.push_back({panel.face, panel.patch.s0, panel.patch.s1, panel.patch.t0, panel.patch.t1,
                                panel.acrossS});
    }
    layout->errorEstimate = error;
  }
  return result;
}

}  // namespace lodestone
