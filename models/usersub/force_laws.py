"""The laws of forces_builtin.xml's expressions as SFOSUB, GFOSUB, VFOSUB, VTOSUB and VARSUB written in Python: the
twin of force_laws.c, in the same arithmetic order, so that forces_python.xml reproduces forces_builtin.xml to the
last bit. See force_laws.c for the USER(...) numbers of each.

py_sysfnc, py_sysary and py_errmes are globals here, as in MotionSolve.
"""


def measure(name, i, j, id):
    """One measure between markers i and j (j = 0: ground); stops the run when the utility refuses it."""
    value, errflg = py_sysfnc(name, [i, j])
    if errflg:
        py_errmes(1, "py_sysfnc refused a measure", id, "STOP")
    return value


def SFOSUB(id, time, par, npar, dflag, iflag):
    i, j = int(par[0]), int(par[1])
    if iflag and npar != 5:
        py_errmes(1, "SFOSUB needs USER(i, j, k, length, c)", id, "STOP")
    # Read in the set-up call too: that is how Lodestone learns which bodies the force depends on.
    return -par[2] * (measure("DM", i, j, id) - par[3]) - par[4] * measure("VZ", i, j, id)


def GFOSUB(id, time, par, npar, dflag, iflag):
    i, j = int(par[0]), int(par[1])
    if iflag and npar != 5:
        py_errmes(1, "GFOSUB needs USER(i, j, k, c, ct)", id, "STOP")
    return [-par[2] * measure("DX", i, j, id),
            -par[2] * measure("DY", i, j, id),
            -par[2] * measure("DZ", i, j, id) - par[3] * measure("VZ", i, j, id),
            -par[4] * measure("WX", i, j, id),
            -par[4] * measure("WY", i, j, id),
            -par[4] * measure("WZ", i, j, id)]


def VFOSUB(id, time, par, npar, dflag, iflag):
    if iflag and npar != 3:
        py_errmes(1, "VFOSUB needs USER(i, k, c)", id, "STOP")
    displacement, errflg = py_sysary("TDISP", [int(par[0])])
    velocity, errflg2 = py_sysary("TVEL", [int(par[0])])
    if errflg or errflg2:
        py_errmes(1, "py_sysary refused TDISP or TVEL", id, "STOP")
    return [-par[1] * displacement[k] - par[2] * velocity[k] for k in range(3)]


def VTOSUB(id, time, par, npar, dflag, iflag):
    if iflag and npar != 2:
        py_errmes(1, "VTOSUB needs USER(i, c)", id, "STOP")
    velocity, errflg = py_sysary("VEL", [int(par[0])])
    if errflg:
        py_errmes(1, "py_sysary refused VEL", id, "STOP")
    return [-par[1] * velocity[3 + k] for k in range(3)]


def VARSUB(id, time, par, npar, dflag, iflag):
    i, j = int(par[0]), int(par[1])
    if iflag and npar != 2:
        py_errmes(1, "VARSUB needs USER(i, j)", id, "STOP")
    return measure("DX", i, j, id) * measure("DY", i, j, id)
