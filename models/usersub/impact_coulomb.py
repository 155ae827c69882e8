"""MotionSolve's IMPACT normal force and COULOMB_ON friction as user subroutines written in Python, with a
CONTACTPOST that writes the contact history: the Python twin of impact_coulomb.c and contact_history.c.

The formulas are the built-in laws' in the same arithmetic order (Python floats are C doubles, ** is C's pow and
py_step is c_step), so a deck using them reproduces cnf_type="IMPACT" / cff_type="COULOMB_ON" to the last bit.

    cnf_param_string="USER(stiffness, exponent, damping, dmax)"
    cff_param_string="USER(mu_static, mu_dynamic, stiction_trans_vel, friction_trans_vel)"

Lodestone runs this file once per run as its own module; py_step, py_errmes, py_get_ncontacts and the other py_*
utilities are globals here, as in MotionSolve (`from lodestone_usersub import py_step` works too).
"""
import math


def CNFSUB(id, time, par, npar, loci, ni, locj, nj, gap, gapdot, gapdotdot, dflag, iflag):
    if iflag:
        # The set-up call: check the parameters once.
        if npar != 4:
            py_errmes(1, "IMPACT needs USER(stiffness, exponent, damping, dmax)", id, "STOP")
        return [0.0]
    penetration = -gap
    rate = -gapdot
    if penetration <= 0:
        return [0.0]
    # k * penetration^e, plus damping that STEP ramps in over the first dmax of penetration (as c_impact does).
    damping, errflg = py_step(penetration, 0.0, 0.0, par[3], par[2], 0)
    if errflg:
        py_errmes(1, "py_step refused dmax", id, "STOP")
    force = par[0] * penetration ** par[1] + damping * rate
    return [force if force > 0 else 0.0]


def CFFSUB(id, time, par, npar, loci, locj, x, xdot, nforce, dflag, iflag):
    if iflag:
        if npar != 4:
            py_errmes(1, "COULOMB_ON needs USER(mu_static, mu_dynamic, vs, vd)", id, "STOP")
        return [0.0, 0.0, 0.0]
    slip = math.sqrt(xdot[0] * xdot[0] + xdot[1] * xdot[1])
    if slip <= 0:
        return [0.0, 0.0, 0.0]
    # mu rises from 0 to mu_static by vs (mu_static times the STEP from -1 at -vs to 1 at vs), then blends to
    # mu_dynamic by vd.
    if slip <= par[2]:
        mu, errflg = py_step(slip, -par[2], -1.0, par[2], 1.0, 0)
        mu = par[0] * mu
    elif slip < par[3]:
        mu, errflg = py_step(slip, par[2], par[0], par[3], par[1], 0)
    else:
        mu = par[1]
    # Against the slip, in the contact frame (x along the slip): magnitude times direction.
    return [-mu * abs(nforce) * (xdot[0] / slip), -mu * abs(nforce) * (xdot[1] / slip), 0.0]


# CONTACTPOST: contact_history_<id>.csv in the working directory, one row per contact point of each contacting
# pair at each output, opened on the first call (iflag) and closed on the last (endflg).
_history = None


def CONTACTPOST(id, i_gra_id, j_gra_id, time, par, npar, iflag, endflg):
    global _history
    if iflag and _history is None:
        _history = open("contact_history_%d.csv" % id, "w")
        _history.write("time,i_graphic,j_graphic,point,penetration,normal_force_x,normal_force_y,normal_force_z\n")
    if _history is None:
        return
    if endflg:
        _history.write("# end at t=%.9g\n" % time)
        _history.close()
        _history = None
        return
    ncontacts, errflg = py_get_ncontacts(id, i_gra_id, j_gra_id)
    for k in range(ncontacts if not errflg else 0):
        depth, errflg = py_get_contact_post(id, i_gra_id, j_gra_id, "PD", 0, k)
        force, errflg = py_get_contact_post(id, i_gra_id, j_gra_id, "NORMAL_FORCE", 0, k)
        _history.write("%.17g,%d,%d,%d,%.17g,%.17g,%.17g,%.17g\n"
                       % (time, i_gra_id, j_gra_id, k, depth[0], force[0], force[1], force[2]))
