// Control_Diff rows of the residual and the iteration matrix.
#include "differential_equations.h"

#include <algorithm>

#include "elements/subroutine_state.h"
#include "elements/reference_variable.h"

namespace lodestone {

DifferentialEquations::DifferentialEquations(const Model& model, const StateLayout& layout)
    : model_(model),
      equations_(model.differentials.get()),
      controls_(model.controls.get()),
      offset_(layout.differentialOffset()),
      count_(layout.differentialCount()),
      equationCount_(model.differentials ? static_cast<int>(model.differentials->equations.size()) : 0),
      context_(model) {
  if (controls_) {
    for (size_t s = 0; s < controls_->systems.size(); ++s) {
      for (int row = 0; row < controls_->systems[s].stateCount(); ++row) {
        controlRows_.emplace_back(static_cast<int>(s), row);
      }
    }
  }
  states_.values.assign(static_cast<size_t>(count_), 0.0);
  states_.rates.assign(static_cast<size_t>(count_), 0.0);
  context_.setDifferentialStates(&states_);
  bodiesRead_.resize(static_cast<size_t>(count_));
  bodyDerivatives_.resize(static_cast<size_t>(count_));
  rowReadsAcceleration_.assign(static_cast<size_t>(count_), 0);
  const VariableModel* variables = model.variables.get();
  const auto subroutineReadsAcceleration = [&](const std::optional<ElementSubroutine>& subroutine) {
    return subroutine && subroutineReads(*subroutine, model).acceleration;
  };
  for (int k = 0; k < count_; ++k) {
    std::vector<int>& read = bodiesRead_[static_cast<size_t>(k)];
    bool acceleration = false;
    if (k >= equationCount_) {
      // A control system's row reads the bodies its input variables read, and its GSESUB's own.
      const ControlSystem& system = controls_->systems[static_cast<size_t>(controlRows_[k - equationCount_].first)];
      if (system.subroutine) addSubroutineBodies(*system.subroutine, model, read);
      acceleration = subroutineReadsAcceleration(system.subroutine);
      for (const int index : system.inputIndices) {
        if (index >= 0) {
          const Expression& input = variables->variables[static_cast<size_t>(index)].expression;
          addBodiesRead(input, model, read);
          addBodiesReadThroughOutputs(input, model, read);
          acceleration = acceleration || readsAcceleration(input, variables);
        }
      }
    } else {
      const ControlDiff& equation = equations_->equations[static_cast<size_t>(k)];
      addBodiesRead(equation.expression, model, read);
      addBodiesReadThroughOutputs(equation.expression, model, read);
      if (equation.subroutine) addSubroutineBodies(*equation.subroutine, model, read);
      acceleration = readsAcceleration(equation.expression, variables) ||
                     subroutineReadsAcceleration(equation.subroutine);
    }
    rowReadsAcceleration_[static_cast<size_t>(k)] = acceleration ? 1 : 0;
    readsAccelerations_ = readsAccelerations_ || acceleration;
    bodyDerivatives_[static_cast<size_t>(k)].assign(read.size(), Eigen::Matrix<double, 1, body_state::kSize>::Zero());
  }
  bodyRateDerivatives_ = bodyDerivatives_;
  // The same reads by body, for differentiate: each body's rows and their place among that row's bodies.
  for (int k = 0; k < count_; ++k) {
    const std::vector<int>& read = bodiesRead_[static_cast<size_t>(k)];
    for (size_t b = 0; b < read.size(); ++b) {
      auto readers = std::find_if(bodyReaders_.begin(), bodyReaders_.end(),
                                  [&](const BodyReaders& r) { return r.body == read[b]; });
      if (readers == bodyReaders_.end()) readers = bodyReaders_.insert(bodyReaders_.end(), BodyReaders{read[b]});
      readers->rows.emplace_back(k, b);
      readers->readAcceleration = readers->readAcceleration || rowReadsAcceleration_[static_cast<size_t>(k)];
    }
  }
  stateDerivatives_ = Eigen::MatrixXd::Zero(count_, count_);
  rateDerivatives_ = Eigen::MatrixXd::Zero(count_, count_);
  for (int k = 0; k < count_; ++k) {
    if (k >= equationCount_ || !equations_->equations[static_cast<size_t>(k)].implicit) rateDerivatives_(k, k) = 1.0;
  }
  for (int body = 0; body < layout.bodyCount(); ++body) bodyOffsets_.push_back(layout.bodyOffset(body));
  base_.resize(static_cast<size_t>(count_));
  perturbedRows_.resize(static_cast<size_t>(count_));
}

void DifferentialEquations::initialState(double* y) const {
  for (int k = 0; k < equationCount_; ++k) y[offset_ + k] = equations_->equations[static_cast<size_t>(k)].initialValue;
  for (int k = equationCount_; k < count_; ++k) {
    const auto [system, row] = controlRows_[static_cast<size_t>(k - equationCount_)];
    y[offset_ + k] = controls_->systems[static_cast<size_t>(system)].initialState(row);
  }
}

void DifferentialEquations::readState(const double* y) {
  if (count_ == 0) return;
  std::copy(y + offset_, y + offset_ + count_, states_.values.begin());
}

void DifferentialEquations::readRates(const double* yp) {
  if (!yp) return;  // kept from the latest state that had them
  std::copy(yp + offset_, yp + offset_ + count_, states_.rates.begin());
}

double DifferentialEquations::controlResidual(int k) const {
  const auto [index, row] = controlRows_[static_cast<size_t>(k - equationCount_)];
  const ControlSystem& system = controls_->systems[static_cast<size_t>(index)];
  if (system.general) {
    return states_.rates[static_cast<size_t>(k)] -
           context_.stateEquationValues(index, differencing_).stated[static_cast<size_t>(row)];
  }
  const int first = equationCount_ + system.stateOffset;
  double rate = 0;
  for (int j = 0; j < system.stateCount(); ++j) {
    rate += system.a(row, j) * states_.values[static_cast<size_t>(first + j)];
  }
  for (size_t i = 0; i < system.inputIndices.size(); ++i) {
    const double b = system.b(row, static_cast<int>(i));
    if (b != 0.0) rate += b * context_.variableAt(system.inputIndices[i]);
  }
  return states_.rates[static_cast<size_t>(k)] - rate;
}

double DifferentialEquations::equationResidual(int k) const {
  if (k >= equationCount_) return controlResidual(k);
  const ControlDiff& equation = equations_->equations[static_cast<size_t>(k)];
  const double value = equation.subroutine ? callElementSubroutine(*equation.subroutine,
                                                                   ContextSubroutineState(model_, context_),
                                                                   differencing_)[0]
                                           : equation.expression.evaluate(context_);
  return equation.implicit ? value : states_.rates[static_cast<size_t>(k)] - value;
}

void DifferentialEquations::residuals(double time, std::span<const BodyKinematics> bodies, double* out) {
  context_.setState(time, bodies);  // forgets the variables' values: they may read DIF and DIF1
  for (int k = 0; k < count_; ++k) out[k] = equationResidual(k);
}

void DifferentialEquations::residual(double time, std::span<const BodyKinematics> bodies, double* r) {
  residuals(time, bodies, r + offset_);
}

void DifferentialEquations::consistentRates(double time, std::span<const BodyKinematics> bodies, double* yp) {
  for (int k = 0; k < equationCount_; ++k) {
    const ControlDiff& equation = equations_->equations[static_cast<size_t>(k)];
    if (equation.implicit) states_.rates[static_cast<size_t>(k)] = equation.initialRate;
  }
  // In deck order, each rate from the rates before it: an equation reading a later one's DIF1 sees that one's guess.
  for (int k = 0; k < count_; ++k) {
    if (k < equationCount_ && equations_->equations[static_cast<size_t>(k)].implicit) continue;
    states_.rates[static_cast<size_t>(k)] = 0.0;
    context_.setState(time, bodies);  // each row sees the rates found before it
    states_.rates[static_cast<size_t>(k)] = -equationResidual(k);
  }
  std::copy(states_.rates.begin(), states_.rates.end(), yp + offset_);
}

void DifferentialEquations::addPatternBlocks(JacobianPattern& pattern) {
  if (count_ == 0) return;
  squareBlock_ = pattern.addBlock({offset_, count_, offset_, count_});
  bodyBlocks_.resize(static_cast<size_t>(count_));
  for (int k = 0; k < count_; ++k) {
    for (const int body : bodiesRead_[static_cast<size_t>(k)]) {
      bodyBlocks_[static_cast<size_t>(k)].push_back(
          pattern.addBlock({offset_ + k, 1, bodyOffsets_[static_cast<size_t>(body)], body_state::kSize}));
    }
  }
}

void DifferentialEquations::differentiate(double time, const double* y, const double* yp,
                                          std::vector<BodyKinematics>& bodies) {
  residuals(time, bodies, base_.data());
  const DifferencingFlag differencing(differencing_);  // DIFSUB's dflag
  // The Control_Diff columns: every row against every state and every rate (there are few).
  for (std::vector<double>* entries : {&states_.values, &states_.rates}) {
    Eigen::MatrixXd& derivatives = entries == &states_.values ? stateDerivatives_ : rateDerivatives_;
    for (int j = 0; j < count_; ++j) {
      double& entry = (*entries)[static_cast<size_t>(j)];
      const double saved = entry;
      const double increment = differenceStep(saved);
      entry = saved + increment;
      residuals(time, bodies, perturbedRows_.data());
      for (int k = 0; k < count_; ++k) {
        derivatives(k, j) = (perturbedRows_[static_cast<size_t>(k)] - base_[static_cast<size_t>(k)]) / increment;
      }
      entry = saved;
    }
  }
  // The bodies' columns: each body read moved one state at a time, and every row that reads it differenced at that
  // state (one evaluation per move for all of them: a GSESUB gives every row of its system at once); where a row
  // reads accelerations, the body's velocity rates moved too.
  std::array<double, body_state::kSize> perturbed{}, perturbedRates{};
  for (const BodyReaders& readers : bodyReaders_) {
    const size_t body = static_cast<size_t>(readers.body);
    const BodyKinematics saved = bodies[body];
    const double* state = y + bodyOffsets_[body];
    const double* rates = yp + bodyOffsets_[body];
    std::copy(state, state + body_state::kSize, perturbed.begin());
    for (int s = 0; s < body_state::kSize; ++s) {
      const double increment = differenceStep(perturbed[static_cast<size_t>(s)]);
      perturbed[static_cast<size_t>(s)] += increment;
      bodies[body] = bodyKinematics(perturbed.data());
      if (readsAccelerations_) addAccelerations(rates, bodies[body]);  // those of y' in the axes at the new y
      context_.setState(time, bodies);
      for (const auto& [k, b] : readers.rows) {
        bodyDerivatives_[static_cast<size_t>(k)][b](s) =
            (equationResidual(k) - base_[static_cast<size_t>(k)]) / increment;
      }
      perturbed[static_cast<size_t>(s)] = state[s];
    }
    bodies[body] = saved;
    if (!readers.readAcceleration) continue;
    std::copy(rates, rates + body_state::kSize, perturbedRates.begin());
    for (const int first : {body_state::kVelocity, body_state::kAngularVelocity}) {
      for (int s = first; s < first + 3; ++s) {
        const double increment = differenceStep(perturbedRates[static_cast<size_t>(s)]);
        perturbedRates[static_cast<size_t>(s)] += increment;
        addAccelerations(perturbedRates.data(), bodies[body]);
        context_.setState(time, bodies);
        for (const auto& [k, b] : readers.rows) {
          if (!rowReadsAcceleration_[static_cast<size_t>(k)]) continue;
          bodyRateDerivatives_[static_cast<size_t>(k)][b](s) =
              (equationResidual(k) - base_[static_cast<size_t>(k)]) / increment;
        }
        perturbedRates[static_cast<size_t>(s)] = rates[s];
      }
    }
    bodies[body] = saved;
  }
}

void DifferentialEquations::writeJacobian(double cj, JacobianAssembler& assembler) const {
  if (count_ == 0) return;
  const Eigen::MatrixXd square = stateDerivatives_ + cj * rateDerivatives_;  // column-major, as addBlock takes
  assembler.addBlock(squareBlock_, square.data());
  for (int k = 0; k < count_; ++k) {
    const std::vector<int>& blocks = bodyBlocks_[static_cast<size_t>(k)];
    for (size_t b = 0; b < blocks.size(); ++b) {
      if (!rowReadsAcceleration_[static_cast<size_t>(k)]) {
        assembler.addBlock(blocks[b], bodyDerivatives_[static_cast<size_t>(k)][b].data());
        continue;
      }
      const Eigen::Matrix<double, 1, body_state::kSize> row =
          bodyDerivatives_[static_cast<size_t>(k)][b] + cj * bodyRateDerivatives_[static_cast<size_t>(k)][b];
      assembler.addBlock(blocks[b], row.data());
    }
  }
}

void DifferentialEquations::multiplyAddRateJacobian(double scale, const double* v, double* out) const {
  for (int k = 0; k < count_; ++k) {
    double sum = 0;
    for (int j = 0; j < count_; ++j) sum += rateDerivatives_(k, j) * v[offset_ + j];
    if (rowReadsAcceleration_[static_cast<size_t>(k)]) {
      const std::vector<int>& read = bodiesRead_[static_cast<size_t>(k)];
      for (size_t b = 0; b < read.size(); ++b) {
        const double* column = v + bodyOffsets_[static_cast<size_t>(read[b])];
        sum += bodyRateDerivatives_[static_cast<size_t>(k)][b].dot(
            Eigen::Map<const Eigen::Matrix<double, 1, body_state::kSize>>(column));
      }
    }
    out[offset_ + k] += scale * sum;
  }
}

}  // namespace lodestone
