/*
 * The expressions of outputs_builtin.xml written as SENSUB, REQSUB and DIFSUB, reading the markers through c_sysfnc
 * and the variable through c_varval: the same formulas in the same arithmetic order, so that outputs_usersub.xml
 * reproduces outputs_builtin.xml to the last bit (the sensor halts at the same time, requests.csv is the same). Each
 * takes its markers and numbers from USER(...):
 *
 *   SENSUB  USER(i, j)            DX(i,j)
 *   REQSUB  USER(i, j, k, l)      DX(i,j), DY(i,j), DZ(i,j), VX(i,j), VZ(k,l), WX(i,j), DM(k,l), WZ(i,j)
 *   DIFSUB  USER(i, j, c, v)      DX(i,j) - c*VARVAL(v)   (v reads DIF of this equation: its own state)
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

DLLFUNC void STDCALL SENSUB(int *id, double *time, double *par, int *npar, int *iflag, double *value) {
  (void)time, (void)iflag;
  if (*npar != 2) { /* par[1] is not there to read */
    c_errmes(1, "SENSUB needs USER(i, j)", *id, "STOP");
    return;
  }
  value[0] = measure("DX", (int)par[0], (int)par[1], *id);
}

DLLFUNC void STDCALL REQSUB(int *id, double *time, double *par, int *npar, int *iflag, double *result) {
  int i, j, k, l;
  (void)time, (void)iflag;
  if (*npar != 4) {
    c_errmes(1, "REQSUB needs USER(i, j, k, l)", *id, "STOP");
    return;
  }
  i = (int)par[0], j = (int)par[1], k = (int)par[2], l = (int)par[3];
  result[0] = measure("DX", i, j, *id);
  result[1] = measure("DY", i, j, *id);
  result[2] = measure("DZ", i, j, *id);
  result[3] = measure("VX", i, j, *id);
  result[4] = measure("VZ", k, l, *id);
  result[5] = measure("WX", i, j, *id);
  result[6] = measure("DM", k, l, *id);
  result[7] = measure("WZ", i, j, *id);
}

DLLFUNC void STDCALL DIFSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result) {
  double variable = 0;
  int errflg = 0;
  (void)time, (void)dflag, (void)iflag;
  if (*npar != 4) {
    c_errmes(1, "DIFSUB needs USER(i, j, c, v)", *id, "STOP");
    return;
  }
  c_varval((int)par[3], &variable, &errflg);
  if (errflg) c_errmes(1, "c_varval refused the variable", *id, "STOP");
  result[0] = measure("DX", (int)par[0], (int)par[1], *id) - par[2] * variable;
}
