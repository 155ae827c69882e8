/*
 * A CONTACTPOST that writes the history of every contacting pair to contact_history_<id>.csv in the working
 * directory: one row per pair and output time, one column group per contact point. It opens the file on the
 * first call (iflag), reads the contact results through c_get_ncontacts / c_get_contact_post, and closes the
 * file on the last call (endflg).
 */
#include <stdio.h>

#include "msolvsub_c_include.h"

static FILE *history = NULL;

DLLFUNC void STDCALL CONTACTPOST(int *id, int *i_gra_id, int *j_gra_id, double *time, double *par, int *npar,
                                 int *iflag, int *endflg) {
  int ncontacts = 0, errflg = 0, k;
  (void)par, (void)npar;
  if (*iflag && history == NULL) {
    char name[64];
    snprintf(name, sizeof name, "contact_history_%d.csv", *id);
    history = fopen(name, "w");
    if (history == NULL) {
      c_errmes(1, "cannot open the contact history file", *id, "STOP");
      return;
    }
    fprintf(history, "time,i_graphic,j_graphic,point,penetration,normal_force_x,normal_force_y,normal_force_z\n");
  }
  if (history == NULL) return;
  if (*endflg) {
    fprintf(history, "# end at t=%.9g\n", *time);
    fclose(history);
    history = NULL;
    return;
  }
  c_get_ncontacts(*id, *i_gra_id, *j_gra_id, &ncontacts, &errflg);
  for (k = 0; k < ncontacts && !errflg; ++k) {
    double depth = 0, force[3] = {0, 0, 0};
    int n = 0;
    c_get_contact_post(*id, *i_gra_id, *j_gra_id, "PD", 0, k, &depth, &n, &errflg);
    c_get_contact_post(*id, *i_gra_id, *j_gra_id, "NORMAL_FORCE", 0, k, force, &n, &errflg);
    fprintf(history, "%.17g,%d,%d,%d,%.17g,%.17g,%.17g,%.17g\n", *time, *i_gra_id, *j_gra_id, k, depth, force[0],
            force[1], force[2]);
  }
}
