// Param_Transient: integrator settings. Lodestone integrates with IDAS (variable-order, variable-step BDF in DAE
// form), which is what MotionSolve's default DSTIFF is; the other integrator types run as DSTIFF.
#include "param_transient.h"

#include "solver/core/text.h"

namespace lodestone {

namespace {

const std::string kDaeNote = "Lodestone's IDAS settings follow from integr_tol and the step limits";

}  // namespace

const ElementSchema<ParamTransientSpec>& paramTransientSchema() {
  using S = ParamTransientSpec;
  static const ElementSchema<S> schema{
      .element = "Param_Transient",
      .attributes = {
          attr::keyword("integrator_type", &S::integrator_type,
                        {"DSTIFF", "CSTIFF", "VSTIFF", "MSTIFF", "ABAM", "NEWMARK", "HHT", "GSTIFF", "WSTIFF"})
              .byDefault(std::string("DSTIFF")).modifiable(),
          attr::real("integr_tol", &S::integr_tol).above(0).byDefault(1e-3).modifiable(),
          attr::real("h_max", &S::h_max).above(0).modifiable(),
          attr::real("h_min", &S::h_min).atLeast(0).modifiable(),
          attr::real("h0_max", &S::h0_max).above(0).modifiable(),
          attr::integer("max_order", &S::max_order).atLeast(1).atMost(5).byDefault(5L).modifiable(),
          attr::ignored<S>("vel_tol_factor", kDaeNote),
          attr::ignored<S>("rel_abs_tol_ratio", kDaeNote),
          attr::ignored<S>("dae_alg_tol_factor", kDaeNote),
          attr::ignored<S>("dae_index", "joints are always integrated in the stabilised index-2 form"),
          attr::real("dae_constr_tol", &S::dae_constr_tol).above(0).byDefault(1e-5).modifiable(),
          attr::ignored<S>("dae_corrector_maxit", kDaeNote),
          attr::ignored<S>("dae_corrector_minit", kDaeNote),
          attr::ignored<S>("dae_vel_ctrl", kDaeNote),
          attr::ignored<S>("dae_jacob_eval", kDaeNote),
          attr::ignored<S>("dae_eval_expiry", kDaeNote),
          attr::ignored<S>("dae_jacob_init", kDaeNote),
          attr::ignored<S>("dae_interpolation", "outputs are always interpolated between integrator steps"),
          attr::ignored<S>("newmark_beta", "Newmark integration is not available; runs as DSTIFF"),
          attr::ignored<S>("newmark_gamma", "Newmark integration is not available; runs as DSTIFF"),
          attr::ignored<S>("hht_alpha", "HHT integration is not available; runs as DSTIFF"),
          attr::presentation<S>("label"),
      }};
  return schema;
}

void checkParamTransient(const ParamTransientSpec& spec, Diagnostics& diagnostics) {
  if (spec.integrator_type != "DSTIFF") {
    diagnostics.warning(spec.loc, "integrator_type " + spec.integrator_type +
                                      " runs as DSTIFF (variable-order BDF in DAE form, IDAS)");
  }
  if (spec.h_max && spec.h_min && *spec.h_min > *spec.h_max) {
    diagnostics.error(spec.loc, "h_min " + formatReal(*spec.h_min) + " exceeds h_max " + formatReal(*spec.h_max) +
                                    "; the smallest step must not be larger than the largest");
  }
  if (spec.h_max && spec.h0_max && *spec.h0_max > *spec.h_max) {
    diagnostics.error(spec.loc, "h0_max " + formatReal(*spec.h0_max) + " exceeds h_max " + formatReal(*spec.h_max) +
                                    "; the first step must not be larger than the largest");
  }
}

IntegratorSettings integratorSettingsOf(const std::optional<ParamTransientSpec>& given) {
  const ParamTransientSpec spec = given ? *given : defaultsOf(paramTransientSchema());
  IntegratorSettings settings;
  settings.integrTol = spec.integr_tol;
  settings.hMax = spec.h_max.value_or(0.0);
  settings.hMin = spec.h_min.value_or(0.0);
  settings.h0Max = spec.h0_max.value_or(0.0);
  settings.maxOrder = spec.max_order;
  settings.constraintTol = spec.dae_constr_tol;
  return settings;
}

}  // namespace lodestone
