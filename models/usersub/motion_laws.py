"""motion_laws.c's MOTSUB in Python, in the same arithmetic order: theta(t) = a*sin(w*t) + b*t from USER(a, w, b),
the expression "a*SIN(w*TIME)+b*TIME". iord: 0 the value, 1 and 2 its first and second time derivatives.

py_errmes is a global here, as in MotionSolve.
"""
import math


def MOTSUB(id, time, par, npar, iord, iflag):
    if npar != 3:
        py_errmes(1, "MOTSUB needs USER(a, w, b)", id, "STOP")
        return 0.0
    if iord == 1:
        return par[0] * par[1] * math.cos(par[1] * time) + par[2]
    if iord == 2:
        return -par[0] * par[1] * par[1] * math.sin(par[1] * time)
    return par[0] * math.sin(par[1] * time) + par[2] * time
