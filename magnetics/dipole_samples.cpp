// Direct and octree sums of the dipole–dipole field over many samples; the octree's cells carry a first-order
// multipole expansion of their dipoles (magnetics/dipole_samples.h).
#include "magnetics/dipole_samples.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

namespace lodestone {

namespace {

constexpr double kInverseFourPi = 0.25 / std::numbers::pi;
// Leaves of at most this many samples: fewer make the tree deeper and the traversal longer, more make the leaf sums
// longer. In the benchmark's lattice at N = 3000, 8, 16 and 32 cost the same within 10 % and 4 a third more.
constexpr int kLeafSize = 16;
// Coincident samples cannot be split; past this depth a cell is a leaf however many it holds.
constexpr int kMaxDepth = 40;
constexpr int kMixedGroups = -1;

// H and its gradient summed over sources, the gradient (symmetric) as its six distinct entries: the pair loops are the
// cost of both sums, and this halves their arithmetic against a full 3×3 matrix.
struct FieldSum {
  double hx = 0, hy = 0, hz = 0;
  double gxx = 0, gyy = 0, gzz = 0, gxy = 0, gxz = 0, gyz = 0;

  void add(const Vector3& field, const Matrix3& gradient) {
    hx += field.x(), hy += field.y(), hz += field.z();
    gxx += gradient(0, 0), gyy += gradient(1, 1), gzz += gradient(2, 2);
    gxy += gradient(0, 1), gxz += gradient(0, 2), gyz += gradient(1, 2);
  }
  FieldAndGradient value() const {
    FieldAndGradient result;
    result.field = Vector3(hx, hy, hz);
    result.gradient << gxx, gxy, gxz, gxy, gyy, gyz, gxz, gyz, gzz;
    return result;
  }
};

// Adds the field of dipole `moment` at `separation` = target − source, and its gradient (kGradient), as dipole.h does:
// along the true direction, at ρ = max(distance, cap). H = (3n(n·m) − m)/(4πρ³);
// ∂Hₐ/∂x_b = 3/(4πρ⁴)·[nₐm_b + mₐn_b + (n·m)(δₐ_b − 5nₐn_b)]. Without the gradient (an induction solve's products need
// H alone) a pair costs less than half as much.
template <bool kGradient = true>
inline void addDipole(const Vector3& separation, const Vector3& moment, double cap, FieldSum& sum) {
  const double distanceSquared = separation.squaredNorm();
  if (distanceSquared == 0) return;
  const double distance = std::sqrt(distanceSquared);
  const double inverse = 1 / distance;
  const double nx = separation.x() * inverse, ny = separation.y() * inverse, nz = separation.z() * inverse;
  const double inverseRho = distance >= cap ? inverse : 1 / cap;
  const double fieldScale = kInverseFourPi * inverseRho * inverseRho * inverseRho;
  const double gradientScale = 3 * fieldScale * inverseRho;
  const double mx = moment.x(), my = moment.y(), mz = moment.z();
  const double nm = nx * mx + ny * my + nz * mz;
  const double threeNm = 3 * nm;
  sum.hx += fieldScale * (threeNm * nx - mx);
  sum.hy += fieldScale * (threeNm * ny - my);
  sum.hz += fieldScale * (threeNm * nz - mz);
  if constexpr (!kGradient) return;
  const double fiveNm = 5 * nm;
  sum.gxx += gradientScale * (2 * nx * mx + nm - fiveNm * nx * nx);
  sum.gyy += gradientScale * (2 * ny * my + nm - fiveNm * ny * ny);
  sum.gzz += gradientScale * (2 * nz * mz + nm - fiveNm * nz * nz);
  sum.gxy += gradientScale * (nx * my + mx * ny - fiveNm * nx * ny);
  sum.gxz += gradientScale * (nx * mz + mx * nz - fiveNm * nx * nz);
  sum.gyz += gradientScale * (ny * mz + my * nz - fiveNm * ny * nz);
}

SampleInteraction interactionOf(const FieldSum& sum, const Vector3& moment, double mu0) {
  const FieldAndGradient total = sum.value();
  return {total.field, mu0 * (total.gradient * moment), mu0 * moment.cross(total.field)};
}

// The expansion of `count` dipoles about their |m|-weighted centroid (their mean position if all moments are zero, or
// if `byStrength` is false: a centre that does not depend on the moments keeps the expansion linear in them).
template <class PositionAt, class MomentAt>
DipoleCluster clusterOf(int count, const PositionAt& positionAt, const MomentAt& momentAt, bool byStrength = true) {
  DipoleCluster cluster;
  if (count == 0) return cluster;
  double weight = 0;
  Vector3 weighted = Vector3::Zero(), mean = Vector3::Zero();
  for (int i = 0; i < count; ++i) {
    const double strength = byStrength ? momentAt(i).norm() : 0.0;
    weight += strength;
    weighted += strength * positionAt(i);
    mean += positionAt(i);
  }
  cluster.centre = weight > 0 ? Vector3(weighted / weight) : Vector3(mean / count);
  for (int i = 0; i < count; ++i) {
    const Vector3 offset = positionAt(i) - cluster.centre;
    cluster.moment += momentAt(i);
    cluster.spread += momentAt(i) * offset.transpose();
    for (int b = 0; b < 3; ++b) cluster.secondMoment[b] += momentAt(i)[b] * offset * offset.transpose();
    cluster.radius = std::max(cluster.radius, offset.norm());
  }
  return cluster;
}

void forEachSample(int count, const ParallelLoop* loop, const std::function<void(int begin, int end)>& body) {
  // A few hundred samples per task: each costs microseconds or more, so the tasks stay long enough to pay their way.
  if (loop) {
    loop->run(count, 256, body);
  } else if (count > 0) {
    body(0, count);
  }
}

// The octree, its samples copied in tree order (each cell's samples contiguous) for the leaf loops.
struct Cell {
  DipoleCluster expansion;
  Vector3 low, high;  // the box bounding its samples
  int begin = 0, end = 0;  // its samples, in tree order
  int firstChild = -1, childCount = 0;
  int group = kMixedGroups;  // the group of all its samples, if they share one
};

class Octree {
 public:
  explicit Octree(const std::vector<GroupedDipoleSample>& samples) {
    const int count = static_cast<int>(samples.size());
    original_.resize(count);
    for (int i = 0; i < count; ++i) original_[i] = i;
    denseGroups(samples);
    Vector3 low = Vector3::Constant(0), high = Vector3::Constant(0);
    if (count > 0) {
      low = high = samples[0].position;
      for (const GroupedDipoleSample& sample : samples) {
        low = low.cwiseMin(sample.position);
        high = high.cwiseMax(sample.position);
      }
    }
    cells_.emplace_back();
    split(0, samples, 0, count, 0.5 * (low + high), 0.5 * (high - low).maxCoeff(), 0);
    position_.resize(count);
    moment_.resize(count);
    group_.resize(count);
    for (int k = 0; k < count; ++k) {
      const GroupedDipoleSample& sample = samples[original_[k]];
      position_[k] = sample.position;
      moment_[k] = sample.moment;
      group_[k] = sampleGroup_[original_[k]];
    }
    if (count > 0) {
      for (Cell& cell : cells_) describe(cell);
    }
  }

  int size() const { return static_cast<int>(position_.size()); }
  int original(int k) const { return original_[k]; }
  const Vector3& moment(int k) const { return moment_[k]; }

  // The field (and with kGradient its gradient) at sample k (tree order) from all samples of other groups. Which cells
  // act as expansions and which are opened is decided on the positions and expansions the tree was built with; the
  // sums take `source`'s: position(j) and moment(j) in tree order, expansion(cell). A tree whose samples have moved
  // since it was built thus keeps its choices, and its result stays a smooth function of the positions.
  template <bool kGradient, class Source>
  FieldSum fieldAt(int k, double cap, double openingAngle, std::vector<int>& stack, const Source& source) const {
    FieldSum sum;
    const Vector3& built = position_[k];
    const Vector3& x = source.position(k);
    const int group = group_[k];
    const Vector3& groupLow = groupLow_[group];
    const Vector3& groupHigh = groupHigh_[group];
    stack.clear();
    stack.push_back(0);
    while (!stack.empty()) {
      const int index = stack.back();
      const Cell& cell = cells_[index];
      stack.pop_back();
      if (cell.group == group) continue;
      const bool mayHoldOwnGroup = cell.group == kMixedGroups && (cell.low.array() <= groupHigh.array()).all() &&
                                   (groupLow.array() <= cell.high.array()).all();
      // A leaf's few samples are summed one by one: exact, and cheaper than its expansion (≈ 9 pair sums).
      if (!mayHoldOwnGroup && cell.childCount > 0) {
        const double distance = (built - cell.expansion.centre).norm();
        if (distance * openingAngle > cell.expansion.radius && distance - cell.expansion.radius > cap) {
          addCluster<kGradient>(source.expansion(index), x, sum);
          continue;
        }
      }
      if (cell.childCount == 0) {
        for (int j = cell.begin; j < cell.end; ++j) {
          if (group_[j] != group) addDipole<kGradient>(x - source.position(j), source.moment(j), cap, sum);
        }
        continue;
      }
      // Pushed last to first so that children are visited in order: the order of the sum does not depend on them.
      for (int c = cell.firstChild + cell.childCount - 1; c >= cell.firstChild; --c) stack.push_back(c);
    }
    return sum;
  }

  template <bool kGradient = true>
  static void addCluster(const DipoleCluster& cluster, const Vector3& point, FieldSum& sum);

  const Vector3& position(int k) const { return position_[k]; }
  const DipoleCluster& expansion(int cell) const { return cells_[cell].expansion; }
  int cellCount() const { return static_cast<int>(cells_.size()); }
  int cellBegin(int cell) const { return cells_[cell].begin; }
  int cellEnd(int cell) const { return cells_[cell].end; }
  bool isLeaf(int cell) const { return cells_[cell].childCount == 0; }

 private:
  // Group ids as 0, 1, … with each group's bounding box.
  void denseGroups(const std::vector<GroupedDipoleSample>& samples) {
    std::vector<int> ids;
    ids.reserve(samples.size());
    for (const GroupedDipoleSample& sample : samples) ids.push_back(sample.group);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    sampleGroup_.resize(samples.size());
    groupLow_.assign(ids.size(), Vector3::Constant(std::numeric_limits<double>::infinity()));
    groupHigh_.assign(ids.size(), Vector3::Constant(-std::numeric_limits<double>::infinity()));
    for (size_t i = 0; i < samples.size(); ++i) {
      const int group = static_cast<int>(std::lower_bound(ids.begin(), ids.end(), samples[i].group) - ids.begin());
      sampleGroup_[i] = group;
      groupLow_[group] = groupLow_[group].cwiseMin(samples[i].position);
      groupHigh_[group] = groupHigh_[group].cwiseMax(samples[i].position);
    }
  }

  // Cell `index` holds original_[begin, end) inside the cube of `centre` and `halfSize`: sort them into its octants
  // (keeping their order within each) and make a child of every octant not empty.
  void split(int index, const std::vector<GroupedDipoleSample>& samples, int begin, int end, const Vector3& centre,
             double halfSize, int depth) {
    cells_[index].begin = begin;
    cells_[index].end = end;
    if (end - begin <= kLeafSize || depth >= kMaxDepth || halfSize == 0) return;
    const auto octant = [&](int i) {
      const Vector3& p = samples[i].position;
      return (p.x() >= centre.x() ? 1 : 0) + (p.y() >= centre.y() ? 2 : 0) + (p.z() >= centre.z() ? 4 : 0);
    };
    std::array<int, 9> starts{};
    for (int k = begin; k < end; ++k) ++starts[octant(original_[k]) + 1];
    for (int o = 0; o < 8; ++o) starts[o + 1] += starts[o];
    std::vector<int> sorted(end - begin);
    std::array<int, 8> next{};
    for (int o = 0; o < 8; ++o) next[o] = starts[o];
    for (int k = begin; k < end; ++k) sorted[next[octant(original_[k])]++] = original_[k];
    std::copy(sorted.begin(), sorted.end(), original_.begin() + begin);
    const int firstChild = static_cast<int>(cells_.size());
    int childCount = 0;
    for (int o = 0; o < 8; ++o) childCount += starts[o + 1] > starts[o] ? 1 : 0;
    cells_[index].firstChild = firstChild;
    cells_[index].childCount = childCount;
    cells_.resize(cells_.size() + childCount);
    int child = firstChild;
    for (int o = 0; o < 8; ++o) {
      if (starts[o + 1] == starts[o]) continue;
      const Vector3 sign((o & 1) ? 1 : -1, (o & 2) ? 1 : -1, (o & 4) ? 1 : -1);
      split(child++, samples, begin + starts[o], begin + starts[o + 1], centre + 0.5 * halfSize * sign,
            0.5 * halfSize, depth + 1);
    }
  }

  // A cell's box, common group and expansion, straight from its samples (each sample is seen once per level).
  void describe(Cell& cell) const {
    cell.low = cell.high = position_[cell.begin];
    cell.group = group_[cell.begin];
    for (int k = cell.begin; k < cell.end; ++k) {
      cell.low = cell.low.cwiseMin(position_[k]);
      cell.high = cell.high.cwiseMax(position_[k]);
      if (group_[k] != cell.group) cell.group = kMixedGroups;
    }
    cell.expansion = clusterOf(cell.end - cell.begin, [&](int i) { return position_[cell.begin + i]; },
                               [&](int i) { return moment_[cell.begin + i]; });
  }

  std::vector<Cell> cells_;
  std::vector<int> original_;  // tree order → input index
  std::vector<int> sampleGroup_;  // input index → dense group
  std::vector<Vector3> groupLow_, groupHigh_;
  std::vector<Vector3> position_, moment_;  // in tree order
  std::vector<int> group_;  // dense, in tree order
};

// With R = x − c = r·n, H = T(R)·M − ∇T(R):D + ½∇∇T(R):Q written out (1/4π left to the end), where T's entries are
// ∂ₐ∂_b(1/r) and the derivatives of 1/r of order k are sums of products of n's and δ's over r^(k+1):
//   order 0:  H = (3n(n·M) − M)/r³,   ∇H = 3/r⁴·[nMᵀ + Mnᵀ + (n·M)(I − 5nnᵀ)];
//   order 1:  H = 3/r⁴·[(5s − t)n − w],   ∇H = −3/r⁵·[(35s − 5t)nnᵀ − 5(nwᵀ + wnᵀ + sI) + D + Dᵀ + tI],
//             s = nᵀDn, t = trace D, w = (D + Dᵀ)n;
//   order 2:  H = 1/(2r⁵)·[105q n − 15(A + 2B + (2u·n + v·n)n) + 3(v + 2u)],
//             ∇H = −1/(2r⁶)·[945q nnᵀ − 105(qI + Anᵀ + nAᵀ + 2Bnᵀ + 2nBᵀ + (2u·n + v·n)nnᵀ)
//                             + 15(n(2u + v)ᵀ + (2u + v)nᵀ + 2P + 2S + 2Sᵀ + (2u·n + v·n)I)],
//             with Q_bce = Σ m_b d_c d_e (Q[b] the matrix of c, e), P = Σ_b n_b Q[b], Aₐ = nᵀQ[a]n, B = Pn, q = n·B,
//             u_e = Σ_b Q_bbe, v_b = trace Q[b], and S's row a = (Q[a]n)ᵀ.
template <bool kGradient>
void Octree::addCluster(const DipoleCluster& cluster, const Vector3& point, FieldSum& sum) {
  const Vector3 offset = point - cluster.centre;
  const double distance = offset.norm();
  const Vector3 n = offset / distance;
  const Vector3& m = cluster.moment;
  const Matrix3& d = cluster.spread;
  const std::array<Matrix3, 3>& q = cluster.secondMoment;
  const double inverse = 1 / distance;
  const double inverse3 = kInverseFourPi * inverse * inverse * inverse, inverse4 = inverse3 * inverse;
  const double inverse5 = inverse4 * inverse, inverse6 = inverse5 * inverse;
  const Matrix3 nn = n * n.transpose();
  const Matrix3 identity = Matrix3::Identity();

  const double nm = n.dot(m);
  const double s = n.dot(d * n), t = d.trace();
  const Vector3 w = d * n + d.transpose() * n;

  const Matrix3 p = n.x() * q[0] + n.y() * q[1] + n.z() * q[2];
  const Vector3 a(n.dot(q[0] * n), n.dot(q[1] * n), n.dot(q[2] * n));
  const Vector3 b = p * n;
  const double qn = n.dot(b);
  const Vector3 u = q[0].row(0).transpose() + q[1].row(1).transpose() + q[2].row(2).transpose();
  const Vector3 v(q[0].trace(), q[1].trace(), q[2].trace());
  const double traces = 2 * u.dot(n) + v.dot(n);
  const Vector3 uv = 2 * u + v;

  const Vector3 field = inverse3 * (3 * nm * n - m) + 3 * inverse4 * ((5 * s - t) * n - w) +
               0.5 * inverse5 * (105 * qn * n - 15 * (a + 2 * b + traces * n) + 3 * uv);
  if constexpr (!kGradient) {
    sum.hx += field.x(), sum.hy += field.y(), sum.hz += field.z();
    return;
  }
  Matrix3 sq;
  for (int row = 0; row < 3; ++row) sq.row(row) = (q[row] * n).transpose();
  const Matrix3 gradient =
      3 * inverse4 * (n * m.transpose() + m * n.transpose() + nm * (identity - 5 * nn)) -
      3 * inverse5 * ((35 * s - 5 * t) * nn - 5 * (n * w.transpose() + w * n.transpose() + s * identity) + d +
                      d.transpose() + t * identity) -
      0.5 * inverse6 *
          (945 * qn * nn -
           105 * (qn * identity + a * n.transpose() + n * a.transpose() + 2 * (b * n.transpose() + n * b.transpose()) +
                  traces * nn) +
           15 * (n * uv.transpose() + uv * n.transpose() + 2 * p + 2 * sq + 2 * sq.transpose() + traces * identity));
  sum.add(field, gradient);
}

}  // namespace

std::vector<SampleInteraction> directInteractions(const std::vector<GroupedDipoleSample>& samples, double cap,
                                                  double mu0, const ParallelLoop* loop) {
  const int count = static_cast<int>(samples.size());
  std::vector<SampleInteraction> results(count);
  forEachSample(count, loop, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      FieldSum sum;
      const GroupedDipoleSample& target = samples[i];
      for (const GroupedDipoleSample& source : samples) {
        if (source.group != target.group) addDipole(target.position - source.position, source.moment, cap, sum);
      }
      results[i] = interactionOf(sum, target.moment, mu0);
    }
  });
  return results;
}

std::vector<SampleInteraction> treeInteractions(const std::vector<GroupedDipoleSample>& samples, double cap,
                                                double mu0, double openingAngle, const ParallelLoop* loop) {
  assert(openingAngle >= 0);
  if (samples.empty()) return {};
  const Octree tree(samples);
  std::vector<SampleInteraction> results(samples.size());
  forEachSample(tree.size(), loop, [&](int begin, int end) {
    std::vector<int> stack;
    stack.reserve(8 * kMaxDepth);
    for (int k = begin; k < end; ++k) {
      results[tree.original(k)] =
          interactionOf(tree.fieldAt<true>(k, cap, openingAngle, stack, tree), tree.moment(k), mu0);
    }
  });
  return results;
}

namespace {

// A DipoleSampleTree's samples as they are now, in tree order, and each cell's expansion about their mean position
// (leaves have none: they are always summed one by one).
struct PresentSamples {
  std::vector<Vector3> positions, moments;
  std::vector<DipoleCluster> expansions;

  const Vector3& position(int k) const { return positions[k]; }
  const Vector3& moment(int k) const { return moments[k]; }
  const DipoleCluster& expansion(int cell) const { return expansions[cell]; }
};

}  // namespace

struct DipoleSampleTree::Structure {
  Octree tree;
};

namespace {

std::vector<GroupedDipoleSample> unmagnetised(const std::vector<Vector3>& positions, const std::vector<int>& groups) {
  assert(positions.size() == groups.size());
  std::vector<GroupedDipoleSample> samples(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) samples[i] = {positions[i], Vector3::Zero(), groups[i]};
  return samples;
}

}  // namespace

// Built from moments of zero, the cells' centres are their samples' mean positions (clusterOf): the acceptance test
// then depends on the geometry alone.
DipoleSampleTree::DipoleSampleTree(const std::vector<Vector3>& positions, const std::vector<int>& groups,
                                   double openingAngle)
    : structure_(std::make_unique<const Structure>(Structure{Octree(unmagnetised(positions, groups))})),
      openingAngle_(openingAngle) {
  assert(openingAngle >= 0);
}

DipoleSampleTree::~DipoleSampleTree() = default;
DipoleSampleTree::DipoleSampleTree(DipoleSampleTree&&) noexcept = default;
DipoleSampleTree& DipoleSampleTree::operator=(DipoleSampleTree&&) noexcept = default;

int DipoleSampleTree::size() const { return structure_->tree.size(); }

template <bool kGradient>
std::vector<SampleInteraction> DipoleSampleTree::evaluate(const std::vector<Vector3>& positions,
                                                          const std::vector<Vector3>& moments, double mu0,
                                                          const ParallelLoop* loop) const {
  const Octree& tree = structure_->tree;
  const int count = tree.size();
  assert(static_cast<int>(positions.size()) == count && static_cast<int>(moments.size()) == count);
  PresentSamples present{std::vector<Vector3>(count), std::vector<Vector3>(count),
                         std::vector<DipoleCluster>(tree.cellCount())};
  for (int k = 0; k < count; ++k) {
    present.positions[k] = positions[tree.original(k)];
    present.moments[k] = moments[tree.original(k)];
  }
  // Each cell's expansion from its own samples alone, in their order: the same whatever thread computes it.
  forEachSample(tree.cellCount(), loop, [&](int begin, int end) {
    for (int c = begin; c < end; ++c) {
      if (tree.isLeaf(c)) continue;
      const int first = tree.cellBegin(c);
      present.expansions[c] =
          clusterOf(tree.cellEnd(c) - first, [&](int i) { return present.positions[first + i]; },
                    [&](int i) { return present.moments[first + i]; }, false);
    }
  });
  std::vector<SampleInteraction> results(count);
  forEachSample(count, loop, [&](int begin, int end) {
    std::vector<int> stack;
    stack.reserve(8 * kMaxDepth);
    for (int k = begin; k < end; ++k) {
      const FieldSum sum = tree.fieldAt<kGradient>(k, 0, openingAngle_, stack, present);
      results[tree.original(k)] = kGradient ? interactionOf(sum, present.moments[k], mu0)
                                            : SampleInteraction{Vector3(sum.hx, sum.hy, sum.hz)};
    }
  });
  return results;
}

std::vector<Vector3> DipoleSampleTree::fields(const std::vector<Vector3>& positions,
                                              const std::vector<Vector3>& moments, const ParallelLoop* loop) const {
  const std::vector<SampleInteraction> interactions = evaluate<false>(positions, moments, 0, loop);
  std::vector<Vector3> result(interactions.size());
  for (size_t i = 0; i < result.size(); ++i) result[i] = interactions[i].field;
  return result;
}

std::vector<SampleInteraction> DipoleSampleTree::interactions(const std::vector<Vector3>& positions,
                                                              const std::vector<Vector3>& moments, double mu0,
                                                              const ParallelLoop* loop) const {
  return evaluate<true>(positions, moments, mu0, loop);
}

DipoleCluster dipoleCluster(const std::vector<GroupedDipoleSample>& samples) {
  return clusterOf(static_cast<int>(samples.size()), [&](int i) { return samples[i].position; },
                   [&](int i) { return samples[i].moment; });
}

FieldAndGradient clusterField(const DipoleCluster& cluster, const Vector3& point) {
  FieldSum sum;
  Octree::addCluster(cluster, point, sum);
  return sum.value();
}

}  // namespace lodestone
