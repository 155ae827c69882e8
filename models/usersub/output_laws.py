"""The expressions of outputs_builtin.xml as SENSUB, REQSUB and DIFSUB written in Python: the twin of output_laws.c,
in the same arithmetic order, so that outputs_python.xml reproduces outputs_builtin.xml to the last bit. See
output_laws.c for the USER(...) numbers of each.

py_sysfnc, py_varval and py_errmes are globals here, as in MotionSolve.
"""


def measure(name, i, j, id):
    """One measure between markers i and j (j = 0: ground); stops the run when the utility refuses it."""
    value, errflg = py_sysfnc(name, [i, j])
    if errflg:
        py_errmes(1, "py_sysfnc refused a measure", id, "STOP")
    return value


def SENSUB(id, time, par, npar, iflag):
    if npar != 2:
        py_errmes(1, "SENSUB needs USER(i, j)", id, "STOP")
        return 0.0
    return measure("DX", int(par[0]), int(par[1]), id)


def REQSUB(id, time, par, npar, iflag):
    if npar != 4:
        py_errmes(1, "REQSUB needs USER(i, j, k, l)", id, "STOP")
        return [0.0] * 8
    i, j, k, l = (int(p) for p in par)
    return [measure("DX", i, j, id), measure("DY", i, j, id), measure("DZ", i, j, id), measure("VX", i, j, id),
            measure("VZ", k, l, id), measure("WX", i, j, id), measure("DM", k, l, id), measure("WZ", i, j, id)]


def DIFSUB(id, time, par, npar, dflag, iflag):
    if npar != 4:
        py_errmes(1, "DIFSUB needs USER(i, j, c, v)", id, "STOP")
        return 0.0
    variable, errflg = py_varval(int(par[3]))
    if errflg:
        py_errmes(1, "py_varval refused the variable", id, "STOP")
    return measure("DX", int(par[0]), int(par[1]), id) - par[2] * variable
