/* A user's own contact subroutine, built by tests/package/install_test.cpp against an installed Lodestone. */
#include "msolvsub_c_include.h"

DLLFUNC void STDCALL CNFSUB(int *id, double *time, double *par, int *npar, double *loci, double *ni, double *locj,
                            double *nj, double *gap, double *gapdot, double *gapdotdot, int *dflag, int *iflag,
                            double *result)
{
  double force[2] = {0.0, 0.0};
  int errflg = 0;
  (void)id; (void)time; (void)npar; (void)loci; (void)ni; (void)locj; (void)nj; (void)gapdotdot; (void)dflag;
  (void)iflag;
  c_impact(*gap, *gapdot, 0.0, par[0], par[1], par[2], par[3], 0, force, &errflg);
  result[0] = force[0];
}
