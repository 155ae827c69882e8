/*
 * Lodestone user subroutines: the C interface a subroutine library is written against.
 *
 * A library defines any of CNFSUB (normal force), CFFSUB (friction force) and CONTACTPOST (called after each
 * output for every contacting pair), SFOSUB, VFOSUB, VTOSUB, GFOSUB (force elements) and VARSUB (Reference_Variable)
 * with MotionSolve's prototypes below — every argument by pointer — and may
 * call the utilities declared after them while Lodestone is calling it. A Force_Contact names the library with
 * cnf_dll_name / cff_dll_name / cpost_dll_name and the function with cnf_fnc_name / cff_fnc_name / cpost_fnc_name
 * (default CNFSUB, CFFSUB, CONTACTPOST); the other elements with usrsub_dll_name and usrsub_fnc_name. See
 * docs/subroutines.md.
 *
 * Pure C (C99 and any C++): the declarations have C linkage, so a C++ definition of CNFSUB is exported under its
 * plain name. STDCALL is empty on Linux and __stdcall on Windows, as in MotionSolve's msolvsub_c_include.h.
 */
#ifndef LODESTONE_USERSUB_H
#define LODESTONE_USERSUB_H

#if defined(_WIN32)
#define STDCALL __stdcall
#define DLLFUNC __declspec(dllexport)
#else
#define STDCALL
#define DLLFUNC __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what a subroutine library provides ------------------------------------------------------------------ */

/*
 * Normal force of one contact point. id: the Force_Contact id; par[npar]: the numbers of cnf_param_string's
 * USER(...). loci, ni: the contact point on the I graphic and the I graphic's outward normal there, relative to
 * the I graphic's reference marker and in its axes; locj, nj the same for J. gap < 0 is penetration; gapdot and
 * gapdotdot its first and second time derivatives. iflag != 0: the set-up call at the start of each simulation
 * (compute nothing costly); dflag != 0: a call made while the Jacobian is differenced. result[0]: the force
 * magnitude along the normal, pushing the bodies apart when positive.
 */
void STDCALL CNFSUB(int *id, double *time, double *par, int *npar, double *loci, double *ni, double *locj,
                    double *nj, double *gap, double *gapdot, double *gapdotdot, int *dflag, int *iflag,
                    double *result);

/*
 * Friction force of one contact point. The contact frame has z along the normal (from J to I) and x along the
 * slip of I on J. x: the tangential displacement of I on J since the contact began, xdot: the slip velocity, both
 * in that frame; nforce: the normal force. result[0..2]: the friction force on I in that frame.
 */
void STDCALL CFFSUB(int *id, double *time, double *par, int *npar, double *loci, double *locj, double *x,
                    double *xdot, double *nforce, int *dflag, int *iflag, double *result);

/*
 * After each output time, once for every pair of graphics in contact (their Post_Graphic ids). iflag != 0 on the
 * first call of the run; endflg != 0 on the last one, made once per element after the last output with
 * i_gra_id = j_gra_id = 0, so that files can be closed.
 */
void STDCALL CONTACTPOST(int *id, int *i_gra_id, int *j_gra_id, double *time, double *par, int *npar, int *iflag,
                         int *endflg);

/*
 * The subroutines of the other force elements and of Reference_Variable share one prototype: par[npar] are the
 * numbers of usrsub_param_string's USER(...), id the element's id; iflag != 0 on the set-up call (made once when the
 * model is built: the markers it reads through c_sysfnc / c_sysary and the variables through c_varval are recorded
 * as what the element depends on, for the Jacobian; the result is not used); dflag != 0 while the Jacobian is
 * differenced. They differ in what they return:
 *   SFOSUB (Force_Scalar_TwoBody type="USERSUB"): result[0], the force or torque's magnitude (its direction as
 *     for val_expression);
 *   VFOSUB: result[0..2], fx fy fz; VTOSUB: result[0..2], tx ty tz; GFOSUB: result[0..5], fx fy fz tx ty tz — the
 *     components of a Force_Vector_* in ref_marker_id's axes;
 *   VARSUB (Reference_Variable type="USERSUB"): result[0], the variable's value.
 */
void STDCALL SFOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result);
void STDCALL VFOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result);
void STDCALL VTOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result);
void STDCALL GFOSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result);
void STDCALL VARSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result);
/*
 * MOTSUB (Motion_Joint type="USERSUB"): result[0], the motion's value as its val_type says (displacement, velocity or
 * acceleration), or with iord = 1 or 2 its first or second time derivative (MotionSolve's prototype, iord where the
 * others have dflag). Lodestone asks for iord = 0 only and differences the value for the rates, as it does an
 * expression's. iflag != 0 on the set-up call, which may read ground markers only.
 */
void STDCALL MOTSUB(int *id, double *time, double *par, int *npar, int *iord, int *iflag, double *result);
/* DIFSUB (Control_Diff type="USERSUB"): result[0], the state's time derivative, or with is_implicit="TRUE" the
   residual F(DIF, DIF1, ...) = 0; the same prototype as the force elements'. */
void STDCALL DIFSUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, double *result);

/*
 * Subroutines whose values are never differenced, so they have no dflag (MotionSolve's prototypes):
 *   SENSUB (Sensor_Event type="USERSUB"): value[0], compared with the sensor's value as its expr would be;
 *   REQSUB (Post_Request type="USERSUB"): result[0..7], the request's eight values F1..F8 (requests.csv).
 * iflag != 0 on the set-up call made when the model is built (the result is not used).
 */
void STDCALL SENSUB(int *id, double *time, double *par, int *npar, int *iflag, double *value);
void STDCALL REQSUB(int *id, double *time, double *par, int *npar, int *iflag, double *result);
/* SEVSUB (Sensor_Evaluate type="USERSUB"): value[0], stored when a sensor naming it fires (SENVAL reads it). */
void STDCALL SEVSUB(int *id, double *time, double *par, int *npar, int *iflag, double *value);

/*
 * FIESUB (Force_Field with a library or script): field[0..5], the force and torque on I in J's axes, from disp[0..5],
 * I's deflection from J (DX DY DZ, AX AY AZ in J's axes) and velo[0..5] its rate; dfddis and dfdvel (6x6 each, row
 * by row) are MotionSolve's partial derivatives of the field, which Lodestone does not read: it differences the
 * field as it does any force. dflag and iflag as for the force elements.
 */
void STDCALL FIESUB(int *id, double *time, double *par, int *npar, double *disp, double *velo, int *dflag, int *iflag,
                    double *field, double *dfddis, double *dfdvel);

/*
 * GSESUB (Control_StateEqn type="USERSUB"): stated[0..nstate-1], the time derivatives of the states, and
 * output[0..noutpt-1], the outputs, at states[0..nstate-1] (the system's states) and input[0..ninput-1] (the values
 * of the U array's variables). MotionSolve's optional partial derivatives (GSEXX, GSEXU, GSEYX, GSEYU) are not
 * called: Lodestone differences GSESUB, with dflag != 0, as it does any subroutine. iflag != 0 on the set-up call.
 */
void STDCALL GSESUB(int *id, double *time, double *par, int *npar, int *dflag, int *iflag, int *nstate, double *states,
                    int *ninput, double *input, int *noutpt, double *stated, double *output);

typedef void(STDCALL *lodestone_cnfsub)(int *, double *, double *, int *, double *, double *, double *, double *,
                                        double *, double *, double *, int *, int *, double *);
typedef void(STDCALL *lodestone_cffsub)(int *, double *, double *, int *, double *, double *, double *, double *,
                                        double *, int *, int *, double *);
typedef void(STDCALL *lodestone_contactpost)(int *, int *, int *, double *, double *, int *, int *, int *);
/* SFOSUB, VFOSUB, VTOSUB, GFOSUB, VARSUB and MOTSUB. */
typedef void(STDCALL *lodestone_elementsub)(int *, double *, double *, int *, int *, int *, double *);
/* SENSUB, SEVSUB and REQSUB. */
typedef void(STDCALL *lodestone_outputsub)(int *, double *, double *, int *, int *, double *);
/* FIESUB. */
typedef void(STDCALL *lodestone_fieldsub)(int *, double *, double *, int *, double *, double *, int *, int *, double *,
                                          double *, double *);

/* GSESUB. */
typedef void(STDCALL *lodestone_gsesub)(int *, double *, double *, int *, int *, int *, int *, double *, int *,
                                        double *, int *, double *, double *);

/* ---- utilities a subroutine may call while Lodestone is calling it ---------------------------------------- */
/* errflg is set to 0 on success and to 1 (with a message in the run log) on failure. */

/*
 * One measure of the model: "TIME" (no ipar), or between markers ipar = {i, j, rm} (j, rm optional: ground):
 * "DX" "DY" "DZ" "DM" (displacement of i from j, in rm's axes, and its magnitude), "VX" "VY" "VZ" "VM"
 * (velocity of i relative to j, in rm's axes), "WX" "WY" "WZ" "WM" (angular velocity of i relative to j).
 */
void c_sysfnc(const char *fncnam, int *ipar, int nsize, double *state, int *errflg);
/* Several at once: "DISP" (dx dy dz, then psi theta phi of i relative to j), "VEL" (vx vy vz wx wy wz),
   "TDISP" and "TVEL" (the first three only); ipar = {i, j, rm}. nstates receives the count. */
void c_sysary(const char *fncnam, int *ipar, int nsize, double *states, int *nstates, int *errflg);
/* The value of Reference_Variable id at the current state (the set-up call records that the caller reads it). */
void c_varval(int id, double *value, int *errflg);
/*
 * Reference_Spline id at (xval, zval) (zval 0 for a single curve), fitted by Akima's method (c_akispl) or the natural
 * cubic spline (c_cubspl), as AKISPL and CUBSPL in expressions. array: iord 0, {y, 0, 0}; iord 1, {dy/dx, dy/dz, 0};
 * iord 2, {d2y/dx2, d2y/dxdz, d2y/dz2} (a family of curves is linear in z: its d2y/dz2 is 0).
 */
void c_akispl(double xval, double zval, int id, int iord, double *array, int *errflg);
void c_cubspl(double xval, double zval, int id, int iord, double *array, int *errflg);
/* A message in the run log naming id's element, as an error when errflg != 0. endflg "STOP" (any case; also
   "TRUE", "YES", "1") stops the run cleanly once the subroutine returns: exit 2, results kept. */
void c_errmes(int errflg, const char *message, int id, const char *endflg);
/* STEP(x, x0, h0, x1, h1) (cubic) or its first (iord 1) or second (iord 2) derivative in x. */
void c_step(double x, double x0, double h0, double x1, double h1, int iord, double *value, int *errflg);
/* IMPACT(x, xdot, x1, k, e, cmax, d): the one-sided impact force, vector[0]; iord 1: vector = {dF/dx, dF/dxdot}. */
void c_impact(double x, double xdot, double x1, double k, double e, double cmax, double d, int iord, double *vector,
              int *errflg);
/* CONTACTPOST only: the number of contact points of the pair (id, i_gra_id, j_gra_id) at this output. */
void c_get_ncontacts(int id, int i_gra_id, int j_gra_id, int *ncontacts, int *errflg);
/*
 * CONTACTPOST only: a result of contact point `index` (0-based) of the pair. type: "PD" (penetration depth),
 * "PD_VEL" (its rate), "SLIP_VEL" (slip speed) give 1 value; "POS", "VEL" (of I relative to J), "NORMAL",
 * "NORMAL_FORCE", "TANGENTIAL_FORCE", "TOTAL_FORCE" (on I) give 3, in the axes of marker rm (0: ground).
 */
void c_get_contact_post(int id, int i_gra_id, int j_gra_id, const char *type, int rm, int index, double *result,
                        int *nresults, int *errflg);

#ifdef __cplusplus
}
#endif

/* CONSUB (UserProgramControl) and the utilities that drive the run from it: c_analys, c_modify, c_datout. */
#include "lodestone/analysis_control.h"

#endif /* LODESTONE_USERSUB_H */
