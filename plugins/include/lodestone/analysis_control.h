/*
 * Lodestone analysis control: CONSUB, the subroutine a <UserProgramControl> command hands the run to, and the
 * utilities only it may call to run analyses (ANALYS), change the model (MODIFY) and write output (DATOUT).
 * Included by lodestone/usersub.h; see docs/subroutines.md ("CONSUB").
 */
#ifndef LODESTONE_ANALYSIS_CONTROL_H
#define LODESTONE_ANALYSIS_CONTROL_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Called once where <UserProgramControl> stands among the deck's commands, after the model is built; the commands
 * after it run once it returns. par[npar]: the numbers of usrsub_param_string's USER(...).
 */
void STDCALL CONSUB(double *par, int *npar);
typedef void(STDCALL *lodestone_consub)(double *, int *);

/*
 * Runs one analysis, as a <Simulate> command would (same outputs, run.log lines and failure handling).
 * analysis: "TRANSIENT", or "STATICS" ("STATIC"); name: a title for run.log; tbegin: the time the previous analysis
 * ended (or where the first one starts); tend: the end time (a static analysis happens at tend). The output step of
 * a transient analysis is UserProgramControl's print_interval, or the last Simulate's. iflag is accepted as
 * MotionSolve's init flag: each analysis continues from the state the previous one reached. istat: 0 when the
 * analysis completed (or a sensor halted it); nonzero when it was refused or failed — the run then reports the
 * failure once CONSUB returns, and later ANALYS and MODIFY calls are refused.
 */
void c_analys(const char *analysis, const char *name, double *tbegin, double *tend, int *iflag, int *istat);
/*
 * Executes an Adams-style command before the next analysis. Accepted: "ACCGRAV/IGRAV=gx, JGRAV=gy, KGRAV=gz" (any
 * of the three; the others keep their values), "ACTIVATE/type, ID=n" and "DEACTIVATE/type, ID=n" with the element
 * types of <Activate>/<Deactivate> (CONTACT, SENSOR, JOINT, JPRIM, MOTION, FORCE, SFORCE, GFORCE, VFORCE, VTORQUE,
 * BUSH, SPDP…). status: 0 when done; nonzero when refused, with a line in run.log naming the command.
 */
void c_modify(const char *command, int *status);
/*
 * Lodestone writes every output row as each analysis produces it; DATOUT flushes the result files to disk so that
 * they are complete at this point. istat: 0.
 */
void c_datout(int *istat);

#ifdef __cplusplus
}
#endif

#endif /* LODESTONE_ANALYSIS_CONTROL_H */
