/*
 * MotionSolve's IMPACT normal force and COULOMB_ON friction, written as user subroutines: the same formulas as
 * Lodestone's built-in laws, so a deck using them reproduces cnf_type="IMPACT" / cff_type="COULOMB_ON".
 *
 *   cnf_param_string="USER(stiffness, exponent, damping, dmax)"
 *   cff_param_string="USER(mu_static, mu_dynamic, stiction_trans_vel, friction_trans_vel)"
 */
#include <math.h>

#include "msolvsub_c_include.h"

DLLFUNC void STDCALL CNFSUB(int *id, double *time, double *par, int *npar, double *loci, double *ni, double *locj,
                            double *nj, double *gap, double *gapdot, double *gapdotdot, int *dflag, int *iflag,
                            double *result) {
  double penetration = -*gap, rate = -*gapdot, damping = 0, force;
  int errflg = 0;
  (void)time, (void)loci, (void)ni, (void)locj, (void)nj, (void)gapdotdot, (void)dflag;
  result[0] = 0;
  if (*iflag) {
    /* The set-up call: check the parameters once. */
    if (*npar != 4) c_errmes(1, "IMPACT needs USER(stiffness, exponent, damping, dmax)", *id, "STOP");
    return;
  }
  if (penetration <= 0) return;
  /* k * penetration^e, plus damping that STEP ramps in over the first dmax of penetration (as c_impact does). */
  c_step(penetration, 0.0, 0.0, par[3], par[2], 0, &damping, &errflg);
  if (errflg) c_errmes(1, "c_step refused dmax", *id, "STOP");
  force = par[0] * pow(penetration, par[1]) + damping * rate;
  result[0] = force > 0 ? force : 0;
}

DLLFUNC void STDCALL CFFSUB(int *id, double *time, double *par, int *npar, double *loci, double *locj, double *x,
                            double *xdot, double *nforce, int *dflag, int *iflag, double *result) {
  double slip, mu = 0;
  int errflg = 0;
  (void)time, (void)loci, (void)locj, (void)x, (void)dflag;
  result[0] = result[1] = result[2] = 0;
  if (*iflag) {
    if (*npar != 4) c_errmes(1, "COULOMB_ON needs USER(mu_static, mu_dynamic, vs, vd)", *id, "STOP");
    return;
  }
  slip = sqrt(xdot[0] * xdot[0] + xdot[1] * xdot[1]);
  if (slip <= 0) return;
  /* mu rises from 0 to mu_static by vs (mu_static times the STEP from -1 at -vs to 1 at vs), then blends to
     mu_dynamic by vd. */
  if (slip <= par[2]) {
    c_step(slip, -par[2], -1.0, par[2], 1.0, 0, &mu, &errflg);
    mu = par[0] * mu;
  } else if (slip < par[3]) {
    c_step(slip, par[2], par[0], par[3], par[1], 0, &mu, &errflg);
  } else {
    mu = par[1];
  }
  /* Against the slip, in the contact frame (x along the slip): magnitude times direction. */
  result[0] = -mu * fabs(*nforce) * (xdot[0] / slip);
  result[1] = -mu * fabs(*nforce) * (xdot[1] / slip);
}
