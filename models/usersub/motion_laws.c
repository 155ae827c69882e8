/*
 * A joint motion written as MOTSUB: theta(t) = a*sin(w*t) + b*t from USER(a, w, b), in the arithmetic order of the
 * expression "a*SIN(w*TIME)+b*TIME", so that a Motion_Joint calling it reproduces the expression's motion to the
 * last bit. Lodestone asks for the value (iord = 0) and differences it for the motion's rates, as an expression's;
 * iord 1 and 2 (the first and second time derivatives, which MotionSolve may ask for) are answered all the same.
 */
#include <math.h>

#include "msolvsub_c_include.h"

DLLFUNC void STDCALL MOTSUB(int *id, double *time, double *par, int *npar, int *iord, int *iflag, double *result) {
  const double t = *time;
  (void)iflag; /* the set-up call checks USER(...) and computes, as the others do */
  if (*npar != 3) {
    c_errmes(1, "MOTSUB needs USER(a, w, b)", *id, "STOP");
    result[0] = 0;
    return;
  }
  switch (*iord) {
    case 1: result[0] = par[0] * par[1] * cos(par[1] * t) + par[2]; break;
    case 2: result[0] = -par[0] * par[1] * par[1] * sin(par[1] * t); break;
    default: result[0] = par[0] * sin(par[1] * t) + par[2] * t; break;
  }
}
