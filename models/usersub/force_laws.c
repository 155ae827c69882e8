/*
 * The laws of forces_builtin.xml's expressions written as SFOSUB, GFOSUB, VFOSUB, VTOSUB and VARSUB, reading the
 * markers through c_sysfnc and c_sysary: the same formulas in the same arithmetic order, so that forces_usersub.xml
 * reproduces forces_builtin.xml to the last bit. Each takes its markers and numbers from USER(...):
 *
 *   SFOSUB  USER(i, j, k, length, c)        -k*(DM(i,j)-length) - c*VZ(i,j)
 *   GFOSUB  USER(i, j, k, c, ct)            -k*DX(i,j), -k*DY(i,j), -k*DZ(i,j) - c*VZ(i,j), -ct*WX..WZ(i,j)
 *   VFOSUB  USER(i, k, c)                   -k*DX(i) - c*VX(i), the same in y and z (c_sysary TDISP and TVEL)
 *   VTOSUB  USER(i, c)                      -c*WX(i), -c*WY(i), -c*WZ(i) (c_sysary VEL)
 *   VARSUB  USER(i, j)                      DX(i,j)*DY(i,j)
 */
#include "msolvsub_c_include.h"

/* One measure between markers i and j (j = 0: ground); stops the run when the utility refuses it. */
static double measure(const char *name, int i, int j, int id) {
  int ipar[2] = {i, j}, errflg = 0;
  double value = 0;
  c_sysfnc(name, ipar, 2, &value, &errflg);
  if (errflg) c_errmes(1, "c_sysfnc refused a measure", id, "STOP");
  return value;
}

DLLFUNC void STDCALL SFOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result) {
  const int i = (int)par[0], j = (int)par[1];
  (void)time, (void)dflag;
  if (*iflag && *npar != 5) c_errmes(1, "SFOSUB needs USER(i, j, k, length, c)", *id, "STOP");
  /* Read in the set-up call too: that is how Lodestone learns which bodies the force depends on. */
  result[0] = -par[2] * (measure("DM", i, j, *id) - par[3]) - par[4] * measure("VZ", i, j, *id);
}

DLLFUNC void STDCALL GFOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result) {
  const int i = (int)par[0], j = (int)par[1];
  (void)time, (void)dflag;
  if (*iflag && *npar != 5) c_errmes(1, "GFOSUB needs USER(i, j, k, c, ct)", *id, "STOP");
  result[0] = -par[2] * measure("DX", i, j, *id);
  result[1] = -par[2] * measure("DY", i, j, *id);
  result[2] = -par[2] * measure("DZ", i, j, *id) - par[3] * measure("VZ", i, j, *id);
  result[3] = -par[4] * measure("WX", i, j, *id);
  result[4] = -par[4] * measure("WY", i, j, *id);
  result[5] = -par[4] * measure("WZ", i, j, *id);
}

DLLFUNC void STDCALL VFOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result) {
  int ipar[1] = {(int)par[0]}, count = 0, errflg = 0, k;
  double displacement[6] = {0}, velocity[6] = {0};
  (void)time, (void)dflag;
  if (*iflag && *npar != 3) c_errmes(1, "VFOSUB needs USER(i, k, c)", *id, "STOP");
  c_sysary("TDISP", ipar, 1, displacement, &count, &errflg);
  if (!errflg) c_sysary("TVEL", ipar, 1, velocity, &count, &errflg);
  if (errflg) c_errmes(1, "c_sysary refused TDISP or TVEL", *id, "STOP");
  for (k = 0; k < 3; ++k) result[k] = -par[1] * displacement[k] - par[2] * velocity[k];
}

DLLFUNC void STDCALL VTOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result) {
  int ipar[1] = {(int)par[0]}, count = 0, errflg = 0, k;
  double velocity[6] = {0};
  (void)time, (void)dflag;
  if (*iflag && *npar != 2) c_errmes(1, "VTOSUB needs USER(i, c)", *id, "STOP");
  c_sysary("VEL", ipar, 1, velocity, &count, &errflg);
  if (errflg) c_errmes(1, "c_sysary refused VEL", *id, "STOP");
  for (k = 0; k < 3; ++k) result[k] = -par[1] * velocity[3 + k];
}

DLLFUNC void STDCALL VARSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result) {
  const int i = (int)par[0], j = (int)par[1];
  (void)time, (void)dflag;
  if (*iflag && *npar != 2) c_errmes(1, "VARSUB needs USER(i, j)", *id, "STOP");
  result[0] = measure("DX", i, j, *id) * measure("DY", i, j, *id);
}
