// Residual and Jacobian assembly for the rigid bodies and the forces on them.
#include "multibody_system.h"

#include <cmath>
#include <numeric>

#include "elements/force_gravity.h"
#include "stopwatch.h"

namespace lodestone {

using namespace body_state;

MultibodySystem::MultibodySystem(const Model& model, PhaseTimes& times, std::span<const double> bodyStates)
    : model_(model),
      times_(times),
      constraints_(model, bodyStates),
      layout_(model, constraints_.multiplierCount(), constraints_.motionStateCount()),
      pattern_(layout_.size()),
      kinematics_(model.bodies.size()),
      loads_(model.bodies.size()),
      contacts_(model),
      stepLimit_(model),
      sensors_(model),
      forces_(model),
      requests_(model),
      contactBlocks_(model.bodies.size()),
      hasContactBlock_(model.bodies.size(), false) {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const int offset = layout_.bodyOffset(body);
    bodyBlocks_.push_back(pattern_.addBlock({offset, kSize, offset, kSize}));
  }
  constraints_.addPatternBlocks(pattern_);
}

void MultibodySystem::initialState(std::span<double> y) const {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    bodyInitialState(model_.bodies[static_cast<size_t>(body)], y.data() + layout_.bodyOffset(body));
  }
  std::fill(y.begin() + layout_.bodyStateSize(), y.end(), 0.0);
}

std::string MultibodySystem::describeVariable(int index) const {
  if (std::string joint = constraints_.describeVariable(index); !joint.empty()) return joint;
  return layout_.describeVariable(model_, index);
}

AssemblyReport MultibodySystem::assemble(double time, bool firstStart, std::span<double> y, std::span<double> yp) {
  return constraints_.assemble(time, firstStart, y, yp, [&](std::span<const double> state, std::vector<BodyLoad>& loads) {
    updateKinematics(state.data());
    detectContacts();
    evaluateForces(time, state.data(), false);
    loads = loads_;
  });
}

void MultibodySystem::acceptState(const double* y) {
  if (constraints_.empty()) return;
  updateKinematics(y);
  constraints_.acceptState(kinematics_);
}

void MultibodySystem::jointReactions(double time, std::span<const double> y, std::vector<JointReaction>& reactions) {
  reactions.clear();
  if (constraints_.empty()) return;
  updateKinematics(y.data());
  constraints_.evaluate(kinematics_, time, y.data());
  constraints_.reactions(y.data(), reactions);
}

void MultibodySystem::updateMotion(const double* y, const double* yp) {
  updateKinematics(y);
  if (contacts_.hasSubroutines()) addBodyAccelerations(yp);
}

void MultibodySystem::projectOutput(double time, std::span<double> y, std::span<double> yp) {
  if (constraints_.empty() || !constraints_.projectOutput(time, y)) return;
  updateMotion(y.data(), yp.data());
  detectContacts();
  evaluateForces(time, y.data(), false);
  constraints_.consistentOutput(time, y, yp, loads_);
}

void MultibodySystem::sampleRequests(double time, std::span<const double> y, std::span<const double> yp,
                                     std::span<const JointReaction> joints, std::vector<RequestSample>& samples) {
  samples.clear();
  if (requests_.empty()) return;
  updateKinematics(y.data());
  addBodyAccelerations(yp.data());
  markerLoads_.clear();
  if (requests_.needsLoads()) {
    forces_.markerLoads(time, kinematics_, markerLoads_);
    for (const JointReaction& joint : joints) {
      markerLoads_.push_back({.markerI = joint.markerI, .markerJ = joint.markerJ, .forceOnI = joint.force,
                              .torqueOnI = joint.torque, .forceOnJ = joint.forceOnJ, .torqueOnJ = joint.torqueOnJ});
    }
  }
  requests_.evaluate(time, kinematics_, markerLoads_, samples);
}

bool MultibodySystem::residual(double time, const double* y, const double* yp, double* r) {
  Stopwatch watch;
  lastNonFiniteBody_ = -1;
  updateMotion(y, yp);
  times_.kinematics += watch.lap();
  detectContacts();
  times_.contactDetection += watch.lap();
  evaluateForces(time, y);
  times_.forces += watch.lap();
  assembleBodyEquations(y, yp, r);
  if (!constraints_.empty()) constraints_.addResidual(y, yp, kinematics_, r);
  times_.assembly += watch.lap();
  ++times_.residualCalls;

  // A NaN or infinity would otherwise slip through Newton's convergence test; report it so IDAS retries with a
  // smaller step and, if it keeps happening, the failure names the body.
  for (int i = 0; i < layout_.size(); ++i) {
    if (!std::isfinite(r[i])) {
      lastNonFiniteBody_ = layout_.bodyOfVariable(i);
      if (const Joint* joint = constraints_.jointOfVariable(i)) {
        lastNonFiniteBody_ = joint->bodyI >= 0 ? joint->bodyI : joint->bodyJ;
      }
      return false;
    }
  }
  return true;
}

void MultibodySystem::updateKinematics(const double* y) {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    kinematics_[static_cast<size_t>(body)] = bodyKinematics(y + layout_.bodyOffset(body));
  }
}

void MultibodySystem::addBodyAccelerations(const double* yp) {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    addAccelerations(yp + layout_.bodyOffset(body), kinematics_[static_cast<size_t>(body)]);
  }
}

void MultibodySystem::detectContacts() { contacts_.detect(kinematics_); }

void MultibodySystem::evaluateForces(double time, const double* y, bool withJoints) {
  for (BodyLoad& load : loads_) load = BodyLoad{};
  addGravityLoads(model_, loads_);
  contacts_.addLoads(time, kinematics_, loads_);
  forces_.addLoads(time, kinematics_, loads_);
  if (withJoints && !constraints_.empty()) {
    constraints_.evaluate(kinematics_, time, y);
    constraints_.addLoads(y, loads_);
  }
}

void MultibodySystem::assembleBodyEquations(const double* y, const double* yp, double* r) {
  const double massFactor = model_.units.massFactor;
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const int offset = layout_.bodyOffset(body);
    bodyResidual(model_.bodies[static_cast<size_t>(body)], massFactor, kinematics_[static_cast<size_t>(body)].rotation,
                 y + offset, yp + offset, loads_[static_cast<size_t>(body)], r + offset);
  }
}

void MultibodySystem::prepareJacobian(double time, const double* y, const double* yp) {
  Stopwatch watch;
  // The body blocks need the loads (a torque fixed in ground turns with the body).
  jacobianState_ = y;
  updateMotion(y, yp);
  detectContacts();
  evaluateForces(time, y);
  differentiateContacts(y);
  differentiateForces(time, y);
  if (!constraints_.empty()) {
    constraints_.differentiate(y, kinematics_, [this](int row, int column) { return couplingBlock(row, column); });
  }
  times_.jacobian += watch.lap();
}

void MultibodySystem::writeJacobian(double cj, JacobianAssembler& assembler) {
  Stopwatch watch;
  const double massFactor = model_.units.massFactor;
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const size_t b = static_cast<size_t>(body);
    bodyJacobian(model_.bodies[b], massFactor, jacobianState_ + layout_.bodyOffset(body), cj, loads_[b], block_);
    if (hasContactBlock_[b]) block_ += contactBlocks_[b];
    assembler.addBlock(bodyBlocks_[b], block_.data());
  }
  for (auto& [bodies, coupling] : couplings_) {
    // A coupling block in the pattern is written every time, with zeros when its contact has ended.
    if (!coupling.used) coupling.values.setZero();
    assembler.addBlock(coupling.patternBlock, coupling.values.data());
  }
  constraints_.writeJacobian(cj, assembler);
  times_.jacobian += watch.lap();
  ++times_.jacobianCalls;
}

void MultibodySystem::writeRateJacobian(JacobianAssembler& assembler) const {
  BodyBlock block;
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const size_t b = static_cast<size_t>(body);
    bodyRateJacobian(model_.bodies[b], model_.units.massFactor, block);
    assembler.addBlock(bodyBlocks_[b], block.data());
  }
}

Eigen::Ref<Eigen::Matrix<double, 6, kSize>> MultibodySystem::couplingBlock(int rowBody, int columnBody) {
  if (rowBody == columnBody) {
    const size_t b = static_cast<size_t>(rowBody);
    if (!hasContactBlock_[b]) contactBlocks_[b].setZero();
    hasContactBlock_[b] = true;
    return contactBlocks_[b].middleRows<6>(kVelocity);
  }
  auto [entry, inserted] = couplings_.try_emplace({rowBody, columnBody});
  Coupling& coupling = entry->second;
  if (inserted) {
    coupling.patternBlock = pattern_.addBlock(
        {layout_.bodyOffset(rowBody) + kVelocity, 6, layout_.bodyOffset(columnBody), kSize});
  }
  if (!coupling.used) coupling.values.setZero();
  coupling.used = true;
  return coupling.values;
}

void MultibodySystem::differentiateContacts(const double* y) {
  std::fill(hasContactBlock_.begin(), hasContactBlock_.end(), false);
  for (auto& [bodies, coupling] : couplings_) coupling.used = false;
  // Each active pair's loads depend on the 13 states of its (one or two) moving bodies. Forward differences over
  // those states only: 13 or 26 evaluations of one pair, whatever the size of the model. Only the 7 position
  // states move the contact points; the unperturbed state and the 6 velocity columns use the points detected
  // at this state (prepareJacobian has just detected them). The pairs are differenced in parallel, each into its own
  // PairDifferences, and written into the blocks in pair order afterwards: the same sums whatever the thread count.
  const std::vector<ContactEvaluator::ActivePair>& pairs = contacts_.activePairs();
  pairDifferences_.resize(pairs.size());
  const auto differencePairs = [&](int begin, int end) {
    std::vector<ContactPoint> scratch;
    for (int p = begin; p < end; ++p) differencePair(pairs[static_cast<size_t>(p)], y, scratch, pairDifferences_[p]);
  };
  if (contacts_.runsUserCode()) {
    differencePairs(0, static_cast<int>(pairs.size()));
  } else {
    parallel_->run(static_cast<int>(pairs.size()), kPairsPerTask, differencePairs);
  }
  writePairDifferences(pairs);
}

void MultibodySystem::writePairDifferences(const std::vector<ContactEvaluator::ActivePair>& pairs) {
  // The blocks each pair writes are looked up first, in pair order (new couplings join the pattern in the order the
  // pairs reach them); then each body's load rows take their pairs' differences on one thread, in pair order, so
  // every entry is the same sum whatever the thread count.
  pairWrites_.clear();
  for (size_t p = 0; p < pairs.size(); ++p) {
    const std::array<int, 2> rows = {pairs[p].bodyI, pairs[p].bodyJ};
    for (int side = 0; side < 2; ++side) {
      const int column = pairDifferences_[p].columns[side];
      if (column < 0) continue;
      for (int on = 0; on < 2; ++on) {
        if (rows[on] < 0) continue;
        auto block = couplingBlock(rows[on], column);
        pairWrites_.push_back({rows[on], static_cast<int>(p), side, on, block.data(), block.outerStride()});
      }
    }
  }
  // By row body, in pair order within each (a counting sort).
  rowWriteStarts_.assign(static_cast<size_t>(layout_.bodyCount()) + 1, 0);
  for (const PairWrite& write : pairWrites_) ++rowWriteStarts_[static_cast<size_t>(write.row) + 1];
  std::partial_sum(rowWriteStarts_.begin(), rowWriteStarts_.end(), rowWriteStarts_.begin());
  rowWrites_.resize(pairWrites_.size());
  rowWriteEnds_.assign(rowWriteStarts_.begin(), rowWriteStarts_.end() - 1);
  for (const PairWrite& write : pairWrites_) {
    rowWrites_[static_cast<size_t>(rowWriteEnds_[static_cast<size_t>(write.row)]++)] = write;
  }

  const auto writeRows = [&](int begin, int end) {
    for (int row = begin; row < end; ++row) {
      for (int w = rowWriteStarts_[static_cast<size_t>(row)]; w < rowWriteStarts_[static_cast<size_t>(row) + 1]; ++w) {
        const PairWrite& write = rowWrites_[static_cast<size_t>(w)];
        const PairDifferences& differences = pairDifferences_[static_cast<size_t>(write.pair)];
        const size_t side = static_cast<size_t>(write.side);
        Eigen::Map<LoadRows, 0, Eigen::OuterStride<>> block(write.values, 6, kSize, Eigen::OuterStride<>(write.stride));
        // The force and torque on the row's body: its pair's body I (on 0) or J.
        const auto force = write.on == 0 ? &TwoBodyLoads::forceOnI : &TwoBodyLoads::forceOnJ;
        const auto torque = write.on == 0 ? &TwoBodyLoads::torqueOnI : &TwoBodyLoads::torqueOnJ;
        const TwoBodyLoads& base = differences.base;
        for (int k = 0; k < kSize; ++k) {
          const TwoBodyLoads& moved = differences.moved[side][static_cast<size_t>(k)];
          subtractDifference(block, row, k, differences.increments[side][static_cast<size_t>(k)], base.*force,
                             moved.*force, base.*torque, moved.*torque);
        }
      }
    }
  };
  parallel_->run(layout_.bodyCount(), kRowBodiesPerTask, writeRows);
}

void MultibodySystem::differencePair(const ContactEvaluator::ActivePair& pair, const double* y,
                                     std::vector<ContactPoint>& scratch, PairDifferences& differences) {
  using Geometry = ContactEvaluator::Geometry;
  const BodyKinematics* kinematicsI = pair.bodyI >= 0 ? &kinematics_[static_cast<size_t>(pair.bodyI)] : nullptr;
  const BodyKinematics* kinematicsJ = pair.bodyJ >= 0 ? &kinematics_[static_cast<size_t>(pair.bodyJ)] : nullptr;
  differences.base = contacts_.pairLoads(pair, kinematicsI, kinematicsJ, Geometry::Detected, scratch);
  differences.columns = {pair.bodyI, pair.bodyJ == pair.bodyI ? -1 : pair.bodyJ};
  for (int side = 0; side < 2; ++side) {
    const int column = differences.columns[side];
    if (column < 0) continue;
    const BodyKinematics& unperturbed = kinematics_[static_cast<size_t>(column)];
    forEachPerturbedState(y + layout_.bodyOffset(column), kSize,
                          [&](int k, double increment, const BodyKinematics& moved) {
      BodyKinematics perturbed = moved;
      perturbed.acceleration = unperturbed.acceleration;
      perturbed.angularAcceleration = unperturbed.angularAcceleration;
      const Geometry geometry = k < kVelocity ? Geometry::Measure : Geometry::Detected;
      differences.increments[side][k] = increment;
      differences.moved[side][k] = side == 0 ? contacts_.pairLoads(pair, &perturbed, kinematicsJ, geometry, scratch)
                                             : contacts_.pairLoads(pair, kinematicsI, &perturbed, geometry, scratch);
    });
  }
}

void MultibodySystem::subtractLoadDifference(int bodyI, int bodyJ, int column, int k, double increment,
                                             const TwoBodyLoads& base, const TwoBodyLoads& moved) {
  // The body residual is M v' − f and J ω' + ω × Jω − Rᵀτ: loads enter with a minus sign, torques in body axes (the
  // turning of Rᵀ itself is in the body's own block already).
  const auto write = [&](int row, const Vector3& force0, const Vector3& force1, const Vector3& torque0,
                         const Vector3& torque1) {
    if (row < 0) return;
    auto block = couplingBlock(row, column);
    subtractDifference(block, row, k, increment, force0, force1, torque0, torque1);
  };
  write(bodyI, base.forceOnI, moved.forceOnI, base.torqueOnI, moved.torqueOnI);
  write(bodyJ, base.forceOnJ, moved.forceOnJ, base.torqueOnJ, moved.torqueOnJ);
}

template <typename Block>
void MultibodySystem::subtractDifference(Block& block, int row, int k, double increment, const Vector3& force0,
                                         const Vector3& force1, const Vector3& torque0, const Vector3& torque1) const {
  const Matrix3& rotation = kinematics_[static_cast<size_t>(row)].rotation;
  block.template block<3, 1>(0, k) -= (force1 - force0) / increment;
  block.template block<3, 1>(3, k) -= rotation.transpose() * (torque1 - torque0) / increment;
}

void MultibodySystem::differentiateForces(double time, const double* y) {
  // Each element's loads depend on the 13 states of the bodies it reads: its markers' bodies and those of the
  // markers its expressions name. Forward differences over those states only, with every other body where it is:
  // 13 evaluations of the one element per body it reads, whatever the size of the model.
  const std::vector<ForceElement>& elements = forces_.elements();
  for (size_t e = 0; e < elements.size(); ++e) {
    const ForceConnection& connection = elements[e].connection;
    if (connection.bodyI < 0 && connection.bodyJ < 0) continue;
    const int element = static_cast<int>(e);
    const TwoBodyLoads base = forces_.elementLoads(element, time, kinematics_);
    for (const int column : connection.bodiesRead) {
      BodyKinematics& kinematics = kinematics_[static_cast<size_t>(column)];
      const BodyKinematics unperturbed = kinematics;
      forEachPerturbedState(y + layout_.bodyOffset(column), kSize,
                            [&](int k, double increment, const BodyKinematics& moved) {
        kinematics = moved;
        const TwoBodyLoads loads = forces_.elementLoads(element, time, kinematics_);
        subtractLoadDifference(connection.bodyI, connection.bodyJ, column, k, increment, base, loads);
      });
      kinematics = unperturbed;
    }
  }
}

void MultibodySystem::rootFunctions(double time, const double* y, const double* yp, double* g) {
  Stopwatch watch;
  updateKinematics(y);
  if (contacts_.rootCount() > 0) {
    detectContacts();
    contacts_.rootFunctions(g);
    times_.contactDetection += watch.lap();
  }
  if (sensors_.rootCount() > 0) {
    if (sensors_.usesAcceleration()) addBodyAccelerations(yp);
    sensors_.rootFunctions(time, kinematics_, g + contacts_.rootCount());
    times_.sensors += watch.lap();
  }
}

void MultibodySystem::rootDirections(int* directions) const {
  std::fill(directions, directions + contacts_.rootCount(), -1);
  sensors_.rootDirections(directions + contacts_.rootCount());
}

double MultibodySystem::sensorValue(int index, double time, const double* y, const double* yp) {
  updateKinematics(y);
  if (sensors_.usesAcceleration()) addBodyAccelerations(yp);
  return sensors_.value(index, time, kinematics_);
}

int MultibodySystem::applyContactRoots(double time, const double* y, const int* rootsFound,
                                       std::vector<ContactEvent>& events) {
  updateKinematics(y);
  detectContacts();
  return contacts_.applyRoots(rootsFound, time, events);
}

const ContactStepLimit& MultibodySystem::measureContactSteps(const double* y, const double* yp, double lookAhead) {
  Stopwatch watch;
  updateKinematics(y);
  addBodyAccelerations(yp);
  stepLimit_.measure(kinematics_, lookAhead, &contacts_.closeGraphics());
  times_.contactStepLimit += watch.lap();
  return stepLimit_;
}

std::vector<Interference> MultibodySystem::contactInterference(const double* y) {
  updateKinematics(y);
  return stepLimit_.interference(kinematics_);
}

void MultibodySystem::acceptContactStep(double time, const double* y, std::vector<ContactEvent>& events) {
  if (contacts_.empty()) return;
  Stopwatch watch;
  updateKinematics(y);
  detectContacts();
  contacts_.synchronise(time, events);
  times_.contactDetection += watch.lap();
}

void MultibodySystem::sampleContacts(double time, std::span<const double> y, std::vector<PairReport>& reports) {
  reports.clear();
  if (contacts_.empty()) return;
  updateKinematics(y.data());
  contacts_.report(time, kinematics_, reports, ContactEvaluator::Reach::Close);
  contacts_.contactPost(time, kinematics_);  // reads the contacts report() has just detected
}

void MultibodySystem::closeContacts(double time, std::span<const double> y, std::vector<PairReport>& reports) {
  reports.clear();
  if (contacts_.empty()) return;
  updateKinematics(y.data());
  contacts_.report(time, kinematics_, reports, ContactEvaluator::Reach::Close);
}

std::span<const BodyKinematics> MultibodySystem::touchingContacts(double time, std::span<const double> y,
                                                                  std::vector<PairReport>& reports) {
  reports.clear();
  if (contacts_.empty()) return kinematics_;
  updateKinematics(y.data());
  contacts_.report(time, kinematics_, reports, ContactEvaluator::Reach::Touching);
  return kinematics_;
}

std::optional<ContactEvaluator::Culprit> MultibodySystem::hardestContactOn(int body, double time,
                                                                         std::span<const double> y) {
  if (contacts_.empty() || body < 0) return std::nullopt;
  updateKinematics(y.data());
  return contacts_.hardestContactOn(body, time, kinematics_);
}

std::optional<ContactEvaluator::Culprit> MultibodySystem::fastestContact(double time, std::span<const double> y) {
  if (contacts_.empty()) return std::nullopt;
  updateKinematics(y.data());
  return contacts_.fastestContact(time, kinematics_);
}

void MultibodySystem::startSubroutines(double time, std::span<const double> y) {
  if (!contacts_.hasSubroutines()) return;
  updateKinematics(y.data());
  detectContacts();
  contacts_.startSubroutines(time);
}

void MultibodySystem::finishSubroutines(double time, std::span<const double> y) {
  if (!contacts_.hasSubroutines()) return;
  updateKinematics(y.data());
  detectContacts();
  contacts_.finishContactPost(time);
}

void MultibodySystem::energyRates(double time, const double* y, const double* yp, double* rates) {
  Stopwatch watch;
  updateMotion(y, yp);
  EnergySample sample;
  if (!contacts_.empty()) {
    detectContacts();
    const ContactEnergy contact = contacts_.energy(time, kinematics_, false);
    sample.contactDashpot = contact.dashpotPower;
    sample.contactSlip = contact.slipPower;
    sample.fieldWork = contact.fieldPower;
  }
  const ForceEnergy force = forces_.energy(time, kinematics_);
  sample.forceDashpot = force.dashpotPower;
  sample.appliedWork = force.appliedPower;
  sample.motionWork = constraints_.motionPower(kinematics_, y);
  for (int k = 0; k < kIntegratedEnergyTermCount; ++k) rates[k] = sample.*kIntegratedEnergyTerms[k];
  times_.energy += watch.lap();
}

void MultibodySystem::heldEnergy(double time, std::span<const double> y, std::span<const double> yp,
                                 std::span<const Vector3> reference, EnergySample& sample) {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const size_t b = static_cast<size_t>(body);
    const double* state = y.data() + layout_.bodyOffset(body);
    const KineticEnergy kinetic = bodyKineticEnergy(model_.bodies[b], model_.units.massFactor, state);
    sample.kineticTranslational += kinetic.translational;
    sample.kineticRotational += kinetic.rotational;
    sample.gravity += gravityPotential(model_, b, Eigen::Map<const Vector3>(state + kPosition), reference[b]);
  }
  updateMotion(y.data(), yp.data());
  if (!contacts_.empty()) {
    detectContacts();
    sample.contactStrain = contacts_.energy(time, kinematics_, true).strain;
  }
  sample.forceStrain = forces_.energy(time, kinematics_).strain;
}

std::vector<Vector3> MultibodySystem::bodyPositions(std::span<const double> y) const {
  std::vector<Vector3> positions;
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    positions.emplace_back(Eigen::Map<const Vector3>(y.data() + layout_.bodyOffset(body) + kPosition));
  }
  return positions;
}

void MultibodySystem::sampleBodies(std::span<const double> y, std::span<const double> yp,
                                   std::vector<BodySample>& samples) const {
  samples.resize(model_.bodies.size());
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const double* state = y.data() + layout_.bodyOffset(body);
    BodySample& sample = samples[static_cast<size_t>(body)];
    const Vector4 e = Eigen::Map<const Vector4>(state + kEulerParameters);
    sample.id = model_.bodies[static_cast<size_t>(body)].id;
    sample.position = Eigen::Map<const Vector3>(state + kPosition);
    sample.eulerParameters = e.normalized();
    sample.velocity = Eigen::Map<const Vector3>(state + kVelocity);
    const Matrix3 rotation = rotationFromEulerParameters(e);
    sample.angularVelocity = rotation * Eigen::Map<const Vector3>(state + kAngularVelocity);
    const double* rate = yp.data() + layout_.bodyOffset(body);
    sample.acceleration = Eigen::Map<const Vector3>(rate + kVelocity);
    // d(Rω_b)/dt = Rω_b' + ω × Rω_b, and ω × ω = 0.
    sample.angularAcceleration = rotation * Eigen::Map<const Vector3>(rate + kAngularVelocity);
  }
}

}  // namespace lodestone
