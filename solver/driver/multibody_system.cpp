// Residual and Jacobian assembly for the rigid bodies and the forces on them.
#include "multibody_system.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "elements/force_gravity.h"
#include "elements/force_joint_friction_law.h"
#include "magnetics/induced_magnetisation.h"
#include "stopwatch.h"

namespace lodestone {

using namespace body_state;

MultibodySystem::MultibodySystem(const Model& model, PhaseTimes& times, std::span<const double> bodyStates)
    : model_(model),
      times_(times),
      constraints_(model, bodyStates),
      layout_(model, constraints_.multiplierCount(), constraints_.motionStateCount()),
      differentials_(model, layout_),
      pattern_(layout_.size()),
      kinematics_(model.bodies.size()),
      loads_(model.bodies.size()),
      contacts_(model),
      stepLimit_(model),
      sensors_(model),
      forces_(model),
      requests_(model),
      contactBlocks_(model.bodies.size()),
      hasContactBlock_(model.bodies.size(), false),
      couplingsOfRow_(model.bodies.size()),
      hasPointBodies_(std::any_of(model.bodies.begin(), model.bodies.end(),
                                  [](const RigidBody& body) { return body.point; })) {
  if (model.jointFrictions && !model.jointFrictions->frictions.empty()) {
    jointFrictions_ = std::make_shared<JointFrictionEvaluator>(model);
    // Each friction's joint found once: the residual reads that one reaction by its index.
    for (const JointFriction& friction : model.jointFrictions->frictions) {
      frictionJoints_.push_back(constraints_.reactionIndexOf(friction.jointId, "Constraint_Joint"));
    }
    frictionReactions_.resize(frictionJoints_.size());
  }
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const int offset = layout_.bodyOffset(body);
    bodyBlocks_.push_back(pattern_.addBlock({offset, kSize, offset, kSize}));
  }
  constraints_.addPatternBlocks(pattern_);
  differentials_.addPatternBlocks(pattern_);
  // A new simulation: an earlier run's stop request (in this process) is not this one's. The set-up calls' messages,
  // made when the model was built, are kept for the log.
  ElementSubroutineRecord& record = elementSubroutineRecord();
  record.stopRequest.reset();
  record.stopTime.reset();
  record.firstNonFiniteReturn.reset();
  record.reported.clear();
  sensors_.setContacts(&contacts_);
  sensors_.setLoads(&markerLoads_);
  sensors_.setFrictionMeasures(&frictionMeasures_);  // FRICTION(), kept with the loads
  requests_.setFrictionMeasures(&frictionMeasures_);
  // Every expression may read the Control_Diff states (DIF, DIF1), as the latest state evaluated has them.
  forces_.setDifferentialStates(differentials_.states());
  sensors_.setDifferentialStates(differentials_.states());
  requests_.setDifferentialStates(differentials_.states());
  contacts_.setDifferentialStates(differentials_.states());
  // And SENVAL the values the sensors' Sensor_Evaluates stored, 0 until the first firing.
  sensorEvaluateValues_.values.assign(model.sensorEvaluates ? model.sensorEvaluates->evaluates.size() : 0, 0.0);
  forces_.setSensorEvaluateValues(&sensorEvaluateValues_);
  sensors_.setSensorEvaluateValues(&sensorEvaluateValues_);
  requests_.setSensorEvaluateValues(&sensorEvaluateValues_);
  contacts_.setSensorEvaluateValues(&sensorEvaluateValues_);
  differentials_.setSensorEvaluateValues(&sensorEvaluateValues_);
  // Force elements that read contacts' loads find them measured at every evaluation of the contacts, which comes
  // before theirs.
  if (forces_.readsContacts()) {
    forces_.setContactMeasures(&contacts_);
    contacts_.setMeasuringEveryEvaluation(true);
  }
}

void MultibodySystem::initialState(std::span<double> y) const {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    bodyInitialState(model_.bodies[static_cast<size_t>(body)], y.data() + layout_.bodyOffset(body));
  }
  std::fill(y.begin() + layout_.bodyStateSize(), y.end(), 0.0);
  differentials_.initialState(y.data());
}

std::string MultibodySystem::describeVariable(int index) const {
  if (std::string joint = constraints_.describeVariable(index); !joint.empty()) return joint;
  return layout_.describeVariable(model_, index);
}

AssemblyReport MultibodySystem::assemble(double time, bool firstStart, std::span<double> y, std::span<double> yp) {
  AssemblyReport report =
      constraints_.assemble(time, firstStart, y, yp, [&](std::span<const double> state, std::vector<BodyLoad>& loads) {
        updateKinematics(state.data());
        detectContacts();
        evaluateForces(time, state.data(), false);
        loads = loads_;
      });
  // Joint friction's bristles start undeflected where the assembly put the joints (also in a system that replaces
  // another after a command changed the model: the stick state starts again there).
  if (jointFrictions_ && (firstStart || !jointFrictions_->started())) {
    updateKinematics(y.data());
    jointFrictions_->start(kinematics_);
  }
  // The start the assembly gives is taken as consistent (IDACalcIC is skipped): the Control_Diff rates too.
  if (!differentials_.empty()) {
    updateKinematics(y.data());
    if (differentials_.readsAccelerations()) addBodyAccelerations(yp.data());  // the start's, solved already
    differentials_.consistentRates(time, kinematics_, yp.data());
  }
  return report;
}

void MultibodySystem::acceptState(const double* y) {
  if (constraints_.empty()) return;
  updateKinematics(y);
  constraints_.acceptState(kinematics_);
  if (jointFrictions_) jointFrictions_->acceptState(kinematics_);
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
  differentials_.readRates(yp);
  if (contacts_.hasSubroutines() || differentials_.readsAccelerations()) addBodyAccelerations(yp);
}

void MultibodySystem::projectOutput(double time, std::span<double> y, std::span<double> yp) {
  if (constraints_.empty() || !constraints_.projectOutput(time, y)) return;
  updateMotion(y.data(), yp.data());
  detectContacts();
  evaluateForces(time, y.data(), false);
  // The friction from the multipliers IDAS has here (those of the step's solution, interpolated).
  if (jointFrictions_) {
    constraints_.evaluate(kinematics_, time, y.data());
    addJointFrictionLoads(y.data(), true);
  }
  constraints_.consistentOutput(time, y, yp, loads_);
}

void MultibodySystem::sampleRequests(double time, std::span<const double> y, std::span<const double> yp,
                                     std::span<const JointReaction> joints, std::vector<RequestSample>& samples) {
  samples.clear();
  if (requests_.empty()) return;
  updateKinematics(y.data());
  addBodyAccelerations(yp.data());
  differentials_.readRates(yp.data());
  markerLoads_.clear();
  if (requests_.readsContacts() || (requests_.needsLoads() && forces_.readsContacts())) measureContacts(time);
  if (requests_.needsLoads()) collectMarkerLoads(time, joints);
  requests_.evaluate(time, kinematics_, markerLoads_, samples, &contacts_);
}

void MultibodySystem::collectMarkerLoads(double time, std::span<const JointReaction> joints) {
  markerLoads_.clear();
  forces_.markerLoads(time, kinematics_, markerLoads_);
  if (jointFrictions_) {
    for (size_t k = 0; k < frictionJoints_.size(); ++k) {
      const size_t index = static_cast<size_t>(frictionJoints_[k]);
      frictionReactions_[k] = frictionJoints_[k] >= 0 && index < joints.size() ? joints[index] : JointReaction{};
    }
    frictionMeasures_.clear();
    jointFrictions_->addOutputs(kinematics_, frictionReactions_, markerLoads_, frictionMeasures_);
  }
  for (const JointReaction& joint : joints) {
    markerLoads_.push_back({.markerI = joint.markerI, .markerJ = joint.markerJ,
                            .source = loadSourceOfElement(joint.element), .id = joint.id, .forceOnI = joint.force,
                            .torqueOnI = joint.torque, .forceOnJ = joint.forceOnJ, .torqueOnJ = joint.torqueOnJ});
  }
}

void MultibodySystem::measureLoadsForSensors(double time, const double* y) {
  // The joints' reactions are y's multipliers: what IDAS has at this state, interpolated between steps as every other
  // variable is.
  // The force elements that read contacts need them measured here (the sensors' own CONTACT has them already).
  if (forces_.readsContacts() && !sensors_.readsContacts()) measureContacts(time);
  sensorJointReactions_.clear();
  if (!constraints_.empty()) {
    constraints_.evaluate(kinematics_, time, y);
    constraints_.reactions(y, sensorJointReactions_);
  }
  collectMarkerLoads(time, sensorJointReactions_);
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
  if (!differentials_.empty()) differentials_.residual(time, kinematics_, r);
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
  differentials_.readState(y);
  parallel_->run(layout_.bodyCount(), kBodiesPerTask, [&](int begin, int end) {
    for (int body = begin; body < end; ++body) {
      kinematics_[static_cast<size_t>(body)] = bodyKinematics(y + layout_.bodyOffset(body));
    }
  });
}

void MultibodySystem::addBodyAccelerations(const double* yp) {
  parallel_->run(layout_.bodyCount(), kBodiesPerTask, [&](int begin, int end) {
    for (int body = begin; body < end; ++body) {
      addAccelerations(yp + layout_.bodyOffset(body), kinematics_[static_cast<size_t>(body)]);
    }
  });
}

void MultibodySystem::detectContacts() { contacts_.detect(kinematics_); }

void MultibodySystem::measureContacts(double time) {
  detectContacts();
  contacts_.measure(time, kinematics_);
}

void MultibodySystem::evaluateForces(double time, const double* y, bool withJoints) {
  for (BodyLoad& load : loads_) load = BodyLoad{};
  addGravityLoads(model_, loads_);
  contacts_.addLoads(time, kinematics_, loads_);
  forces_.addLoads(time, kinematics_, loads_);
  if (withJoints && !constraints_.empty()) {
    constraints_.evaluate(kinematics_, time, y);
    constraints_.addLoads(y, loads_);
    addJointFrictionLoads(y);
  }
}

void MultibodySystem::readFrictionReactions(const double* y) {
  for (size_t k = 0; k < frictionJoints_.size(); ++k) {
    if (frictionJoints_[k] >= 0) constraints_.reactionLoads(frictionJoints_[k], y, frictionReactions_[k]);
  }
}

void MultibodySystem::addJointFrictionLoads(const double* y, bool atOutput) {
  // The friction reads the multipliers of the state being evaluated, Newton's iterate: the loop friction →
  // accelerations → reactions → friction closes in the residual, with no state of its own. The iteration matrix
  // leaves out the friction's derivatives (Newton's iteration treats it as a load fixed over the iteration).
  if (!jointFrictions_ || solvingStatics_) return;
  readFrictionReactions(y);
  jointFrictions_->addLoads(kinematics_, frictionReactions_, loads_, atOutput);
}

void MultibodySystem::assembleBodyEquations(const double* y, const double* yp, double* r) {
  const double massFactor = model_.units.massFactor;
  parallel_->run(layout_.bodyCount(), kBodiesPerTask, [&](int begin, int end) {
    for (int body = begin; body < end; ++body) {
      const int offset = layout_.bodyOffset(body);
      const size_t b = static_cast<size_t>(body);
      bodyResidual(model_.bodies[b], massFactor, kinematics_[b].rotation, y + offset, yp + offset, loads_[b], r + offset);
    }
  });
}

void MultibodySystem::prepareJacobian(double time, const double* y, const double* yp, double cj) {
  Stopwatch watch;
  ++jacobianCount_;
  // The body blocks need the loads (a torque fixed in ground turns with the body).
  jacobianState_ = y;
  updateMotion(y, yp);
  detectContacts();
  evaluateForces(time, y);
  differentiateContacts(y);
  differentiateForces(time, y, cj);
  if (!differentials_.empty()) differentials_.differentiate(time, y, yp, kinematics_);
  if (!constraints_.empty()) {
    constraints_.differentiate(y, kinematics_, [this](int row, int column) { return couplingBlock(row, column); });
  }
  if (hasPointBodies_) dropPointBodyTurnRows();
  retireIdleCouplings();
  times_.jacobian += watch.lap();
}

void MultibodySystem::dropPointBodyTurnRows() {
  // A point body's turning rows are ω' = 0 (elements/body_point.h; bodyJacobian writes its own block so): what
  // contacts, forces and joints put in those rows of its own block and of its couplings to other bodies is a
  // torque's derivative, and torques on it do nothing.
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    if (!model_.bodies[b].point) continue;
    if (hasContactBlock_[b]) contactBlocks_[b].middleRows<3>(kAngularVelocity).setZero();
    for (const auto& [columnBody, index] : couplingsOfRow_[b]) {
      couplings_[static_cast<size_t>(index)].values.bottomRows<3>().setZero();
    }
  }
}

void MultibodySystem::retireIdleCouplings() {
  long idleNonZeros = 0;
  const auto idle = [&](const Coupling& coupling) {
    return pattern_.isActive(coupling.patternBlock) && jacobianCount_ - coupling.lastNeeded >= kIdleJacobians;
  };
  for (const Coupling& coupling : couplings_) {
    if (idle(coupling)) idleNonZeros += LoadRows::SizeAtCompileTime;
  }
  if (idleNonZeros == 0 || idleNonZeros < kIdleShareToRetire * static_cast<double>(pattern_.nonZeros())) return;
  for (Coupling& coupling : couplings_) {
    if (!idle(coupling)) continue;
    coupling.used = false;  // a weak block written this time is dropped with it: the residual takes it
    pattern_.setActive(coupling.patternBlock, false);
    ++couplingBlocksRetired_;
  }
}

void MultibodySystem::writeJacobian(double cj, JacobianAssembler& assembler) {
  Stopwatch watch;
  // Bodies and couplings write distinct blocks, so they are written on the threads (the joints' blocks, which may
  // add into the bodies', come after).
  const double massFactor = model_.units.massFactor;
  const auto writeBodies = [&](int begin, int end) {
    BodyBlock block;
    for (int body = begin; body < end; ++body) {
      const size_t b = static_cast<size_t>(body);
      bodyJacobian(model_.bodies[b], massFactor, jacobianState_ + layout_.bodyOffset(body), cj, loads_[b], block);
      if (hasContactBlock_[b]) block += contactBlocks_[b];
      assembler.addBlock(bodyBlocks_[b], block.data());
    }
  };
  parallel_->run(layout_.bodyCount(), kBodyBlocksPerTask, writeBodies);
  const auto writeCouplings = [&](int begin, int end) {
    for (int c = begin; c < end; ++c) {
      // A coupling whose contact has ended stays in the pattern, and is left out: zero.
      const Coupling& coupling = couplings_[static_cast<size_t>(c)];
      if (coupling.used) assembler.addBlock(coupling.patternBlock, coupling.values.data());
    }
  };
  parallel_->run(static_cast<int>(couplings_.size()), kCouplingsPerTask, writeCouplings);
  constraints_.writeJacobian(cj, assembler);
  differentials_.writeJacobian(cj, assembler);
  times_.jacobian += watch.lap();
  ++times_.jacobianCalls;
}

void MultibodySystem::multiplyAddRateJacobian(double scale, const double* v, double* out) const {
  parallel_->run(layout_.bodyCount(), kBodiesPerTask, [&](int begin, int end) {
    for (int body = begin; body < end; ++body) {
      const int offset = layout_.bodyOffset(body);
      addBodyRateProduct(model_.bodies[static_cast<size_t>(body)], model_.units.massFactor, scale, v + offset,
                         out + offset);
    }
  });
  differentials_.multiplyAddRateJacobian(scale, v, out);
}

Eigen::Ref<Eigen::Matrix<double, 6, kSize>> MultibodySystem::couplingBlock(int rowBody, int columnBody,
                                                                            bool needed) {
  if (rowBody == columnBody) {
    const size_t b = static_cast<size_t>(rowBody);
    if (!hasContactBlock_[b]) contactBlocks_[b].setZero();
    hasContactBlock_[b] = true;
    return contactBlocks_[b].middleRows<6>(kVelocity);
  }
  std::vector<std::pair<int, int>>& row = couplingsOfRow_[static_cast<size_t>(rowBody)];
  const auto found = std::find_if(row.begin(), row.end(), [&](const auto& entry) { return entry.first == columnBody; });
  int index = found != row.end() ? found->second : -1;
  if (index < 0) {
    const int patternBlock =
        pattern_.addBlock({layout_.bodyOffset(rowBody) + kVelocity, 6, layout_.bodyOffset(columnBody), kSize});
    index = static_cast<int>(couplings_.size());
    row.emplace_back(columnBody, index);
    couplings_.push_back({patternBlock, LoadRows::Zero(), false});
  }
  Coupling& coupling = couplings_[static_cast<size_t>(index)];
  pattern_.setActive(coupling.patternBlock, true);  // back in the pattern if it was set aside
  if (!coupling.used) coupling.values.setZero();
  coupling.used = true;
  if (needed) coupling.lastNeeded = jacobianCount_;
  return coupling.values;
}

void MultibodySystem::differentiateContacts(const double* y) {
  std::fill(hasContactBlock_.begin(), hasContactBlock_.end(), false);
  for (Coupling& coupling : couplings_) coupling.used = false;
  // Each active pair's loads depend on the 13 states of its (one or two) moving bodies. Forward differences over
  // those states only: 13 or 26 evaluations of one pair, whatever the size of the model. Only the 7 position
  // states move the contact points; the unperturbed state and the 6 velocity columns use the points detected
  // at this state (prepareJacobian has just detected them). The pairs are differenced in parallel, each into its own
  // PairDifferences, and written into the blocks in pair order afterwards: the same sums whatever the thread count.
  const std::vector<ContactEvaluator::ActivePair>& pairs = contacts_.activePairs();
  perturbBodiesOfPairs(pairs, y);
  pairDifferences_.resize(pairs.size());
  const auto differencePairs = [&](int begin, int end) {
    ContactEvaluator::DifferencingScratch scratch;
    for (int p = begin; p < end; ++p) differencePair(pairs[static_cast<size_t>(p)], scratch, pairDifferences_[p]);
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
        const LoadDerivatives& derivatives = differences.derivatives[side];
        subtractLoadDerivatives(block, row, derivatives.middleRows<3>(6 * write.on),
                                derivatives.middleRows<3>(6 * write.on + 3));
      }
    }
  };
  parallel_->run(layout_.bodyCount(), kRowBodiesPerTask, writeRows);
}

void MultibodySystem::perturbBodiesOfPairs(const std::vector<ContactEvaluator::ActivePair>& pairs, const double* y) {
  perturbedBodies_.resize(static_cast<size_t>(layout_.bodyCount()));
  perturbsBody_.assign(static_cast<size_t>(layout_.bodyCount()), 0);
  for (const ContactEvaluator::ActivePair& pair : pairs) {
    for (int body : {pair.bodyI, pair.bodyJ}) {
      if (body >= 0) perturbsBody_[static_cast<size_t>(body)] = 1;
    }
  }
  const auto perturb = [&](int begin, int end) {
    for (int body = begin; body < end; ++body) {
      const size_t b = static_cast<size_t>(body);
      if (!perturbsBody_[b]) continue;
      const BodyKinematics& unperturbed = kinematics_[b];
      PerturbedBody& perturbed = perturbedBodies_[b];
      forEachPerturbedState(y + layout_.bodyOffset(body), kSize,
                            [&](int k, double increment, const BodyKinematics& moved) {
        BodyKinematics& kinematics = perturbed.kinematics[static_cast<size_t>(k)];
        kinematics = moved;
        kinematics.acceleration = unperturbed.acceleration;
        kinematics.angularAcceleration = unperturbed.angularAcceleration;
        perturbed.increments[static_cast<size_t>(k)] = increment;
      });
    }
  };
  parallel_->run(layout_.bodyCount(), kPerturbedBodiesPerTask, perturb);
}

void MultibodySystem::differencePair(const ContactEvaluator::ActivePair& pair,
                                     ContactEvaluator::DifferencingScratch& scratch, PairDifferences& differences) {
  using Geometry = ContactEvaluator::Geometry;
  contacts_.beginDifferencing(pair, scratch);
  const BodyKinematics* kinematicsI = pair.bodyI >= 0 ? &kinematics_[static_cast<size_t>(pair.bodyI)] : nullptr;
  const BodyKinematics* kinematicsJ = pair.bodyJ >= 0 ? &kinematics_[static_cast<size_t>(pair.bodyJ)] : nullptr;
  const TwoBodyLoads base = contacts_.pairLoads(pair, kinematicsI, kinematicsJ, Geometry::Detected, scratch);
  differences.columns = {pair.bodyI, pair.bodyJ == pair.bodyI ? -1 : pair.bodyJ};
  const auto difference = [&](int side, size_t k) {
    const PerturbedBody& perturbed = perturbedBodies_[static_cast<size_t>(differences.columns[side])];
    const Geometry geometry = k < kVelocity ? Geometry::Measure : Geometry::Detected;
    const BodyKinematics* moved = &perturbed.kinematics[k];
    const TwoBodyLoads loads = side == 0 ? contacts_.pairLoads(pair, moved, kinematicsJ, geometry, scratch)
                                         : contacts_.pairLoads(pair, kinematicsI, moved, geometry, scratch);
    const double increment = perturbed.increments[k];
    auto column = differences.derivatives[static_cast<size_t>(side)].col(static_cast<Eigen::Index>(k));
    column << (loads.forceOnI - base.forceOnI) / increment, (loads.torqueOnI - base.torqueOnI) / increment,
        (loads.forceOnJ - base.forceOnJ) / increment, (loads.torqueOnJ - base.torqueOnJ) / increment;
  };
  const std::optional<Vector3> velocityPoint = contacts_.onlyVelocityPoint(pair);
  for (int side = 0; side < 2; ++side) {
    if (differences.columns[side] < 0) continue;
    const BodyKinematics& body = side == 0 ? *kinematicsI : *kinematicsJ;
    LoadDerivatives& derivatives = differences.derivatives[static_cast<size_t>(side)];
    const PerturbedBody& perturbed = perturbedBodies_[static_cast<size_t>(differences.columns[side])];
    // A sphere of one contact point turning about its centre: its Euler parameters reach the pair only through the
    // angular velocity in ground.
    const bool turnsInPlace = velocityPoint && contacts_.turnsInPlace(pair, side);
    if (side == 1 && differences.columns[0] >= 0 && !contacts_.runsUserCode()) {
      deriveFromBodyI(*kinematicsI, *kinematicsJ, differences.derivatives);
      if (turnsInPlace) {
        deriveEulerFromAngularVelocity(perturbed, body, derivatives);
      } else {
        for (size_t k = kPosition + 3; k < kVelocity; ++k) difference(1, k);  // J's Euler parameters
      }
      continue;
    }
    for (size_t k = 0; k < kSize; ++k) {
      const bool euler = k >= kPosition + 3 && k < kVelocity;
      if ((euler && turnsInPlace) || (k >= kAngularVelocity && velocityPoint)) continue;
      difference(side, k);
    }
    if (velocityPoint) deriveAngularFromLinearVelocity(*velocityPoint, body, derivatives);
    if (turnsInPlace) deriveEulerFromAngularVelocity(perturbed, body, derivatives);
  }
}

void MultibodySystem::deriveEulerFromAngularVelocity(const PerturbedBody& perturbed, const BodyKinematics& body,
                                                     LoadDerivatives& derivatives) {
  // ∂/∂e_k = ∂/∂ω·∂ω/∂e_k with ω = R(e)·ω_b in ground: ∂/∂ω = ∂/∂ω_b·Rᵀ, and ∂ω/∂e_k from the perturbed kinematics,
  // the same increments the differences would take. Four evaluations of the pair fewer, each a collision.
  const Eigen::Matrix<double, 12, 3> byAngularVelocity =
      derivatives.middleCols<3>(kAngularVelocity) * body.rotation.transpose();
  for (size_t k = kPosition + 3; k < kVelocity; ++k) {
    const Vector3 turned = perturbed.kinematics[k].angularVelocity - body.angularVelocity;
    derivatives.col(static_cast<Eigen::Index>(k)) = byAngularVelocity * (turned / perturbed.increments[k]);
  }
}

void MultibodySystem::deriveAngularFromLinearVelocity(const Vector3& point, const BodyKinematics& body,
                                                      LoadDerivatives& derivatives) {
  // The pair feels the body's motion only through the velocity of its one point, v + ω × r = v − [r]×·ω with r from
  // the body's centre: ∂/∂ω = −∂/∂v·[r]× in ground axes, times R for the states' body axes (ω = R·ω_b). Three
  // evaluations of the pair fewer.
  derivatives.middleCols<3>(kAngularVelocity) =
      -derivatives.middleCols<3>(kVelocity) * skew(point - body.position) * body.rotation;
}

void MultibodySystem::deriveFromBodyI(const BodyKinematics& bodyI, const BodyKinematics& bodyJ,
                                      std::array<LoadDerivatives, 2>& derivatives) {
  // A pair's loads (forces, and torques about the bodies' centres) depend only on where the bodies are relative to
  // each other and on their relative velocities at the contact points. So they do not change when both bodies move
  // by the same translation, nor when both take the same rigid velocity field u + Ω × x (v = u + Ω × p, ω = Ω, which
  // leaves every point's relative velocity 0): ∂/∂p_J = −∂/∂p_I, ∂/∂v_J = −∂/∂v_I, and in ground axes
  // ∂/∂ω_J = −∂/∂ω_I + ∂/∂v_I·[p_I − p_J]×. The angular velocity states are in body axes (ω = R·ω_b). Only J's Euler
  // parameters need their own differences. Laws that run user code may read more than the pair (c_sysfnc), so their
  // pairs are differenced in full.
  const LoadDerivatives& i = derivatives[0];
  LoadDerivatives& j = derivatives[1];
  j.middleCols<3>(kPosition) = -i.middleCols<3>(kPosition);
  j.middleCols<3>(kVelocity) = -i.middleCols<3>(kVelocity);
  const Eigen::Matrix<double, 12, 3> angularInGround =
      -i.middleCols<3>(kAngularVelocity) * bodyI.rotation.transpose() +
      i.middleCols<3>(kVelocity) * skew(bodyI.position - bodyJ.position);
  j.middleCols<3>(kAngularVelocity) = angularInGround * bodyJ.rotation;
}

void MultibodySystem::subtractLoadDifference(int bodyI, int bodyJ, int column, int k, double increment,
                                             const TwoBodyLoads& base, const TwoBodyLoads& moved) {
  // The body residual is M v' − f and J ω' + ω × Jω − Rᵀτ: loads enter with a minus sign, torques in body axes (the
  // turning of Rᵀ itself is in the body's own block already).
  const auto write = [&](int row, const Vector3& force0, const Vector3& force1, const Vector3& torque0,
                         const Vector3& torque1) {
    if (row < 0) return;
    subtractLoadDerivatives(couplingBlock(row, column).col(k), row, (force1 - force0) / increment,
                            (torque1 - torque0) / increment);
  };
  write(bodyI, base.forceOnI, moved.forceOnI, base.torqueOnI, moved.torqueOnI);
  write(bodyJ, base.forceOnJ, moved.forceOnJ, base.torqueOnJ, moved.torqueOnJ);
}

template <typename Rows, typename Force, typename Torque>
void MultibodySystem::subtractLoadDerivatives(Rows&& rows, int row, const Force& force, const Torque& torque) const {
  const Matrix3& rotation = kinematics_[static_cast<size_t>(row)].rotation;
  rows.template topRows<3>() -= force;
  rows.template bottomRows<3>() -= rotation.transpose() * torque;
}

namespace {
// How much a body's rows of Newton's iteration matrix may lack, relative to its inertia times cj², for the far magnet
// pairs left out of them: IDAS's modified Newton converges about as fast with a matrix off by that share as it does
// with one kept from an earlier step.
constexpr double kWeakCouplingShare = 0.01;
}  // namespace

std::vector<bool> MultibodySystem::farMagnetPairsToLeaveOut(double time, double cj, std::vector<double>& budget) {
  // The weakest first, each while both its bodies' budgets hold it: a body among many far magnets gives its budget to
  // its many weak pairs, not to a few stronger ones.
  const std::vector<ForceElement>& elements = forces_.elements();
  std::vector<bool> leaveOut(elements.size(), false);
  budget.assign(static_cast<size_t>(layout_.bodyCount()), kWeakCouplingShare * cj * cj);
  if (cj <= 0) return leaveOut;
  const std::vector<std::optional<double>> couplings = forces_.farCouplings(time, kinematics_);
  std::vector<std::pair<double, int>> candidates;
  for (size_t e = 0; e < couplings.size(); ++e) {
    if (couplings[e]) candidates.emplace_back(*couplings[e], static_cast<int>(e));
  }
  std::sort(candidates.begin(), candidates.end());
  for (const auto& candidate : candidates) {
    // Named, not bound: clang 14 cannot capture a structured binding in the lambda below.
    const double coupling = candidate.first;
    const int element = candidate.second;
    const ForceConnection& connection = elements[static_cast<size_t>(element)].connection;
    const auto fits = [&](int body) { return body < 0 || coupling <= budget[static_cast<size_t>(body)]; };
    if (!fits(connection.bodyI) || !fits(connection.bodyJ)) continue;
    for (const int body : {connection.bodyI, connection.bodyJ}) {
      if (body >= 0) budget[static_cast<size_t>(body)] -= coupling;
    }
    leaveOut[static_cast<size_t>(element)] = true;
  }
  return leaveOut;
}

MultibodySystem::RowScale MultibodySystem::rowScale(int row) const {
  const RigidBody& body = model_.bodies[static_cast<size_t>(row)];
  const double mass = model_.units.massFactor * body.mass;
  const double leastInertia = body.inertia.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff();
  const double inertia = model_.units.massFactor * leastInertia;
  return RowScale{mass, inertia, mass > 0 && inertia > 0 ? std::sqrt(inertia / mass) : 0};
}

double MultibodySystem::blockCoupling(const RowScale& scale, const LoadRows& block, double cj) {
  // Each part of the block as an acceleration per unit move of the column body (1/s²): forces per mass, torques per
  // least principal inertia, crossed parts through the row body's radius of gyration. A quaternion column counts as a
  // turn of half its size, so the turning parts are over- rather than under-estimated. The velocity columns enter
  // Newton's matrix beside cj·M rather than cj²·M: their part counts cj times.
  if (scale.radius <= 0) return std::numeric_limits<double>::infinity();
  const auto part = [&](int column, int count) {
    const auto forces = block.topRows<3>().middleCols(column, count),
               torques = block.bottomRows<3>().middleCols(column, count);
    return std::pair{forces.norm(), torques.norm()};
  };
  const auto [forcePerMove, torquePerMove] = part(kPosition, 3);
  const auto [forcePerTurn, torquePerTurn] = part(kEulerParameters, 4);
  const auto [forcePerSpeed, torquePerSpeed] = part(kVelocity, 3);
  const auto [forcePerSpin, torquePerSpin] = part(kAngularVelocity, 3);
  const auto acceleration = [&](double alongMove, double alongTurn, double turnMove, double turnTurn) {
    return alongMove / scale.mass + turnTurn / scale.inertia + alongTurn / (scale.mass * scale.radius) +
           turnMove * scale.radius / scale.inertia;
  };
  return acceleration(forcePerMove, forcePerTurn, torquePerMove, torquePerTurn) +
         cj * acceleration(forcePerSpeed, forcePerSpin, torquePerSpeed, torquePerSpin);
}

bool MultibodySystem::hasManyBodyElements() const {
  return std::ranges::any_of(forces_.elements(),
                             [](const ForceElement& element) { return !element.connection.bodiesLoaded.empty(); });
}

void MultibodySystem::writeManyBodyBlocks(const ForceConnection& connection, std::vector<LoadRows>& blocks,
                                          const std::vector<int>& alwaysWritten, double cj,
                                          std::vector<double>& budget) {
  // A block in the row or column of an `alwaysWritten` body is written; one between two others only if leaving it
  // out would overdraw its row body's budget, the weakest left out first. One the budget could leave out but which
  // is in the pattern already is written all the same (it costs the factorisation nothing more), as not needed: the
  // pattern lets it go when it has been so for a while (retireIdleCouplings).
  const auto always = [&](int body) {
    return std::find(alwaysWritten.begin(), alwaysWritten.end(), body) != alwaysWritten.end();
  };
  const size_t columns = connection.bodiesRead.size();
  std::vector<std::pair<double, size_t>> candidates;
  for (size_t b = 0; b < connection.bodiesLoaded.size(); ++b) {
    const int row = connection.bodiesLoaded[b];
    const RowScale scale = rowScale(row);
    for (size_t c = 0; c < columns; ++c) {
      const int column = connection.bodiesRead[c];
      if (row == column || always(row) || always(column)) {
        couplingBlock(row, column) += blocks[b * columns + c];
        continue;
      }
      candidates.emplace_back(blockCoupling(scale, blocks[b * columns + c], cj), b * columns + c);
    }
  }
  std::sort(candidates.begin(), candidates.end());
  for (const auto& [coupling, index] : candidates) {
    const int row = connection.bodiesLoaded[index / columns], column = connection.bodiesRead[index % columns];
    const bool inPattern = hasActiveCouplingBlock(row, column);
    double& left = budget[static_cast<size_t>(row)];
    const bool weak = coupling <= left;
    if (weak) left -= coupling;
    if (weak && !inPattern) {
      ++manyBodyBlocksLeftOut_;
      continue;
    }
    couplingBlock(row, column, !weak) += blocks[index];
    if (!inPattern) ++manyBodyBlocksWritten_;
  }
}

std::vector<int> MultibodySystem::permanentMagnetBodies(const ForceElement& element) {
  // The soft magnets' mutual blocks are the many weak ones (N² of them); the permanent magnets' are few and strong.
  std::vector<int> bodies;
  if (const auto* induced = std::get_if<InducedMagnets>(&element.law)) {
    for (const InducedMagnets::Permanent& magnet : induced->permanent) bodies.push_back(magnet.body);
  }
  return bodies;
}

bool MultibodySystem::hasActiveCouplingBlock(int rowBody, int columnBody) const {
  const std::vector<std::pair<int, int>>& row = couplingsOfRow_[static_cast<size_t>(rowBody)];
  return std::any_of(row.begin(), row.end(), [&](const auto& entry) {
    return entry.first == columnBody && pattern_.isActive(couplings_[static_cast<size_t>(entry.second)].patternBlock);
  });
}

void MultibodySystem::differentiateForces(double time, const double* y, double cj) {
  // Each element's loads depend on the 13 states of the bodies it reads: its markers' bodies and those of the
  // markers its expressions name (the induced magnets: every magnet's). Forward differences over those states only,
  // with every other body where it is: 13 evaluations of the one element per body it reads, whatever the size of the
  // model. An element that reads contacts' loads reads their bodies too, and has the contacts evaluated again at each
  // of its perturbed states (and once more at this state after them, for the elements that follow).
  const std::vector<ForceElement>& elements = forces_.elements();
  std::vector<double> budget;
  const std::vector<bool> leaveOut = farMagnetPairsToLeaveOut(time, cj, budget);
  for (size_t e = 0; e < elements.size(); ++e) {
    const ForceConnection& connection = elements[e].connection;
    if (connection.bodyI < 0 && connection.bodyJ < 0 && connection.bodiesLoaded.empty()) continue;
    const int element = static_cast<int>(e);
    if (std::holds_alternative<MagnetPair>(elements[e].law)) {
      if (leaveOut[e]) {
        ++farMagnetPairsLeftOut_;
        continue;
      }
      ++magnetPairsDifferenced_;
    }
    if (forces_.switchedOff(element, time, kinematics_)) continue;  // loads 0 nearby: no blocks, none in the pattern
    // The induced magnets' dense solves of the differenced states start from the base state's factors.
    const InductionDifferencing fromTheBase;
    const ElementLoads base = forces_.elementLoads(element, time, kinematics_);
    // A law over many bodies (the induced magnets) loads each of its bodies: its blocks are gathered first, as the
    // weak ones may be left to the residual.
    const size_t columns = connection.bodiesRead.size();
    std::vector<LoadRows> blocks(connection.bodiesLoaded.size() * columns, LoadRows::Zero());
    for (size_t c = 0; c < columns; ++c) {
      const int column = connection.bodiesRead[c];
      BodyKinematics& kinematics = kinematics_[static_cast<size_t>(column)];
      const BodyKinematics unperturbed = kinematics;
      forEachPerturbedState(y + layout_.bodyOffset(column), connection.readsVelocities ? kSize : kVelocity,
                            [&](int k, double increment, const BodyKinematics& moved) {
        kinematics = moved;
        if (connection.readsContacts) measureContacts(time);  // the contacts' loads it reads move with the body
        const ElementLoads loads = forces_.elementLoads(element, time, kinematics_);
        subtractLoadDifference(connection.bodyI, connection.bodyJ, column, k, increment, base.pair, loads.pair);
        for (size_t b = 0; b < connection.bodiesLoaded.size(); ++b) {
          subtractLoadDerivatives(blocks[b * columns + c].col(k), connection.bodiesLoaded[b],
                                  (loads.onBodies[b].force - base.onBodies[b].force) / increment,
                                  (loads.onBodies[b].torque - base.onBodies[b].torque) / increment);
        }
      });
      kinematics = unperturbed;
    }
    if (connection.readsContacts) measureContacts(time);  // back to this state, for the elements after it
    if (!blocks.empty()) writeManyBodyBlocks(connection, blocks, permanentMagnetBodies(elements[e]), cj, budget);
  }
}

void MultibodySystem::rootFunctions(double time, const double* y, const double* yp, double* g) {
  Stopwatch watch;
  updateKinematics(y);
  differentials_.readRates(yp);
  if (sensors_.usesAcceleration()) addBodyAccelerations(yp);
  if (sensors_.readsContacts()) measureContacts(time);
  if (sensors_.readsLoads()) measureLoadsForSensors(time, y);
  sensors_.rootFunctions(time, kinematics_, g);
  times_.sensors += watch.lap();
}

void MultibodySystem::rootDirections(int* directions) const { sensors_.rootDirections(directions); }

void MultibodySystem::contactCrossings(const double* y, std::vector<ContactEvaluator::Crossing>& found) {
  Stopwatch watch;
  updateKinematics(y);
  detectContacts();
  contacts_.crossings(found);
  times_.contactDetection += watch.lap();
}

double MultibodySystem::contactCrossingDistance(const ContactEvaluator::Crossing& crossing, const double* y) const {
  const auto [bodyI, bodyJ] = contacts_.crossingBodies(crossing);
  const auto kinematicsOf = [&](int body) {
    return body < 0 ? std::optional<BodyKinematics>() : bodyKinematics(y + layout_.bodyOffset(body));
  };
  const std::optional<BodyKinematics> kinematicsI = kinematicsOf(bodyI), kinematicsJ = kinematicsOf(bodyJ);
  return contacts_.crossingDistance(crossing, kinematicsI ? &*kinematicsI : nullptr,
                                    kinematicsJ ? &*kinematicsJ : nullptr);
}

double MultibodySystem::sensorValue(int index, double time, const double* y, const double* yp) {
  updateKinematics(y);
  differentials_.readRates(yp);
  if (sensors_.usesAcceleration()) addBodyAccelerations(yp);
  if (sensors_.readsContacts()) measureContacts(time);
  if (sensors_.readsLoads()) measureLoadsForSensors(time, y);
  return sensors_.value(index, time, kinematics_);
}

bool MultibodySystem::storeSensorEvaluate(int index, double time, const double* y, const double* yp) {
  const int evaluate = sensors_.sensors()[static_cast<size_t>(index)].evaluate;
  if (evaluate < 0) return false;
  const SensorEvaluateModel& evaluates = *model_.sensorEvaluates;
  updateKinematics(y);
  differentials_.readRates(yp);
  if (evaluates.usesAcceleration) addBodyAccelerations(yp);
  if (evaluates.readsContacts) measureContacts(time);
  if (evaluates.readsLoads) measureLoadsForSensors(time, y);
  double& stored = sensorEvaluateValues_.values[static_cast<size_t>(evaluate)];
  const double value = sensors_.evaluateValue(evaluate, time, kinematics_);
  const bool changed = value != stored;
  stored = value;
  return changed;
}

int MultibodySystem::applyContactCrossings(double time, const double* y,
                                           std::span<const ContactEvaluator::Crossing> crossings,
                                           std::vector<ContactEvent>& events) {
  updateKinematics(y);
  detectContacts();
  return contacts_.applyCrossings(crossings, time, events);
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
  // The impact recorder reads only forces and depths.
  contacts_.report(time, kinematics_, reports, ContactEvaluator::Reach::Touching,
                   ContactEvaluator::Detail::ForcesOnly);
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

std::vector<SubroutineMessage> MultibodySystem::takeSubroutineMessages() {
  std::vector<SubroutineMessage> messages = contacts_.takeMessages();
  for (ElementSubroutineRecord::Message& message : std::exchange(elementSubroutineRecord().messages, {})) {
    messages.push_back({nullptr, std::move(message.text), message.error});
  }
  return messages;
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
    if (forces_.readsContacts()) contacts_.measure(time, kinematics_);
    const ContactEnergy contact = contacts_.energy(time, kinematics_, false);
    sample.contactDashpot = contact.dashpotPower;
    sample.contactSlip = contact.slipPower;
    sample.fieldWork = contact.fieldPower;
  }
  const ForceEnergy force = forces_.energy(time, kinematics_);
  sample.forceDashpot = force.dashpotPower;
  sample.appliedWork = force.appliedPower;
  sample.fieldWork += force.fieldPower;
  sample.motionWork = constraints_.motionPower(kinematics_, y);
  if (jointFrictions_ && !solvingStatics_) {
    // Joint friction's work is counted with the dampers' (docs/joints.md#joint-friction).
    constraints_.evaluate(kinematics_, time, y);
    readFrictionReactions(y);
    sample.forceDashpot += jointFrictions_->dissipatedPower(kinematics_, frictionReactions_);
  }
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
    if (forces_.readsContacts()) contacts_.measure(time, kinematics_);
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
