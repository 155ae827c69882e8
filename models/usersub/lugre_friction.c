/*
 * LuGre friction (Canudas de Wit, Olsson, Åström, Lischinsky, IEEE TAC 40(3), 1995) as a named Lodestone law:
 * cff_type="LUGRE" with its own attributes. The contact is a brush of elastic bristles whose mean deflection z (a
 * vector in the contact plane, per contact point) is the law's state:
 *
 *     dz/dt = v − σ0·|v|·z / g(v),     g(v) = μc + (μs − μc)·exp(−(|v|/vs)²)
 *     F     = −(σ0·z + σ1·dz/dt + σ2·v)·N
 *
 * with v the slip velocity of I on J and N the normal force. Unlike a regularised Coulomb law, a body held by
 * stiction does not creep: the bristles deflect by (F/N)/σ0 and then hold. In steady sliding dz/dt = 0 and the
 * force is (g(v) + σ2·v)·N, the Stribeck curve.
 *
 * The state is advanced between accepted steps by the exact solution of the bristle equation for a constant slip
 * velocity over the interval (z relaxes exponentially towards g(v)·v/(σ0·|v|)), which is stable however stiff the
 * bristles; the force at any time within a step uses the same solution from the last accepted state, so it is the
 * force of the state the step would reach.
 *
 * Build: lodestone_add_subroutine_library(lugre_friction lugre_friction.c) in a CMake project with
 * find_package(lodestone); run: lodestone run deck.xml --laws lugre_friction.
 */
#include <math.h>

#include "lodestone/contact_law.h"

enum { MU_STATIC, MU_DYNAMIC, STRIBECK_VEL, BRISTLE_STIFFNESS, BRISTLE_DAMPING, VISCOUS_FRICTION };

static const lodestone_law_parameter parameters[] = {
    /* name, meaning, required, default, minimum, minimum excluded, maximum, maximum excluded */
    {"mu_static", "static friction coefficient mu_s, dimensionless", 1, 0, 0, 1, HUGE_VAL, 0},
    {"mu_dynamic", "Coulomb friction coefficient mu_c, dimensionless", 1, 0, 0, 1, HUGE_VAL, 0},
    {"stribeck_vel", "Stribeck velocity v_s over which mu falls from mu_s to mu_c, velocity", 1, 0, 0, 1, HUGE_VAL, 0},
    {"bristle_stiffness", "sigma0: friction coefficient per bristle deflection, 1/length", 1, 0, 0, 1, HUGE_VAL, 0},
    {"bristle_damping", "sigma1: friction coefficient per bristle deflection rate, time/length", 1, 0, 0, 0, HUGE_VAL,
     0},
    {"viscous_friction", "sigma2: friction coefficient per slip speed, time/length", 0, 0, 0, 0, HUGE_VAL, 0},
};

static void check(const lodestone_law *law, const double *p, lodestone_law_problem report, void *context) {
  (void)law;
  /* The Stribeck curve falls from mu_s to mu_c: a static coefficient below the sliding one is a typing error. */
  if (p[MU_DYNAMIC] > p[MU_STATIC]) report(context, "mu_dynamic must not exceed mu_static");
}

static double stribeck(const double *p, double speed) {
  const double ratio = speed / p[STRIBECK_VEL];
  return p[MU_DYNAMIC] + (p[MU_STATIC] - p[MU_DYNAMIC]) * exp(-ratio * ratio);
}

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The bristle deflection `elapsed` after `state`, for the point's slip velocity, in the contact plane; and its rate. */
static void bristles(const double *p, const lodestone_contact_point *point, const double *state, double z[3],
                     double zdot[3]) {
  const double *v = point->slip_velocity;
  const double *n = point->normal;
  const double speed = sqrt(dot(v, v));
  const double rate = p[BRISTLE_STIFFNESS] * speed / stribeck(p, speed); /* relaxation rate a = sigma0·|v|/g */
  const double at = rate * point->elapsed;
  /* z(t) = z0·exp(−a·t) + v·(1 − exp(−a·t))/a, whose second factor tends to t as a·t → 0. */
  const double decay = exp(-at);
  const double growth = at > 1e-8 ? -expm1(-at) / rate : point->elapsed * (1 - 0.5 * at);
  const double normalPart = dot(state, n); /* the contact plane turns with the bodies: keep z in it */
  for (int k = 0; k < 3; ++k) {
    z[k] = (state[k] - normalPart * n[k]) * decay + v[k] * growth;
    zdot[k] = v[k] - rate * z[k];
  }
}

static void friction_force(const lodestone_law *law, const double *p, const lodestone_contact_point *point,
                           const double *state, double force[3]) {
  (void)law;
  double z[3], zdot[3];
  bristles(p, point, state, z, zdot);
  const double normal = point->normal_force > 0 ? point->normal_force : 0;
  for (int k = 0; k < 3; ++k) {
    force[k] = -(p[BRISTLE_STIFFNESS] * z[k] + p[BRISTLE_DAMPING] * zdot[k] +
                 p[VISCOUS_FRICTION] * point->slip_velocity[k]) * normal;
  }
}

static void advance_state(const lodestone_law *law, const double *p, const lodestone_contact_point *point,
                          double *state) {
  (void)law;
  double z[3], zdot[3];
  bristles(p, point, state, z, zdot);
  for (int k = 0; k < 3; ++k) state[k] = z[k];
}

static const lodestone_law lugre = {
    .size = sizeof(lodestone_law),
    .abi_version = LODESTONE_LAW_ABI_VERSION,
    .keyword = "LUGRE",
    .kind = LODESTONE_FRICTION_LAW,
    .summary = "LuGre friction: bristle deflection state per contact point, no creep in stiction, Stribeck curve",
    .parameters = parameters,
    .parameter_count = sizeof parameters / sizeof parameters[0],
    .state_size = 3,
    .check = check,
    .friction_force = friction_force,
    .advance_state = advance_state,
};

LODESTONE_LAW_EXPORT const lodestone_law *const *lodestone_register_laws(const lodestone_law_host *host, int *count) {
  static const lodestone_law *const laws[] = {&lugre};
  (void)host;
  *count = 1;
  return laws;
}
