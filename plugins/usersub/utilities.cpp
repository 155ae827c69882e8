// The utilities of lodestone/usersub.h, for subroutines written in C or C++: each checks its arguments, asks the
// active SubroutineHost, and answers through its output pointers with errflg 0, or errflg 1 and a line in the log.
#include <algorithm>
#include <cstring>
#include <string>

#include "lodestone/usersub.h"
#include "solver/core/rotation.h"
#include "solver/core/step_functions.h"
#include "solver/core/text.h"
#include "subroutine_host.h"

namespace lodestone {

namespace {

SubroutineHost* currentHost = nullptr;

// Reports through the host (when there is one) and sets the error flag.
void fail(int* errflg, const char* utility, const std::string& problem) {
  if (errflg) *errflg = 1;
  if (currentHost) currentHost->utilityProblem(utility, problem);
}

std::string textOf(const char* text) { return text ? std::string(text) : std::string(); }

// The markers i, j and the axes marker of a measure call; j and the axes default to ground (0).
struct MeasureMarkers {
  MarkerMotion i, j, axes;
};

std::optional<MeasureMarkers> measureMarkers(const char* utility, const int* ipar, int nsize, int* errflg) {
  if (!ipar || nsize < 1) {
    fail(errflg, utility, "needs at least one marker id in ipar (nsize " + std::to_string(nsize) + ")");
    return std::nullopt;
  }
  if (nsize > 3 && ipar[3] != 0) {
    fail(errflg, utility, "a reference frame for the time derivative (ipar[3] = " + std::to_string(ipar[3]) +
                              ") other than ground (0) is not supported");
    return std::nullopt;
  }
  MeasureMarkers markers;
  MarkerMotion* targets[] = {&markers.i, &markers.j, &markers.axes};
  for (int k = 0; k < 3; ++k) {
    const int id = k < nsize ? ipar[k] : 0;
    const std::optional<MarkerMotion> motion = currentHost->markerMotion(id);
    if (!motion) {
      fail(errflg, utility, "no Reference_Marker id=" + std::to_string(id) + " in the model");
      return std::nullopt;
    }
    *targets[k] = *motion;
  }
  return markers;
}

// c_akispl and c_cubspl: Reference_Spline id at (xval, zval), fitted by Akima's method or the natural cubic spline.
void splineUtility(const char* utility, bool akima, double xval, double zval, int id, int iord, double* array,
                   int* errflg) {
  if (errflg) *errflg = 0;
  if (!currentHost) return fail(errflg, utility, "called outside a user subroutine");
  if (!array) return fail(errflg, utility, "array is a null pointer");
  if (iord < 0 || iord > 2) return fail(errflg, utility, "iord must be 0, 1 or 2, not " + std::to_string(iord));
  const std::optional<std::array<double, 3>> found = currentHost->splinePartials(akima, id, xval, zval, iord);
  if (!found) return fail(errflg, utility, "no Reference_Spline id=" + std::to_string(id) + " in the model");
  std::copy(found->begin(), found->end(), array);
}

}  // namespace

SubroutineHost* activeSubroutineHost() { return currentHost; }
void setActiveSubroutineHost(SubroutineHost* host) { currentHost = host; }

}  // namespace lodestone

using namespace lodestone;

extern "C" {

void c_sysfnc(const char* fncnam, int* ipar, int nsize, double* state, int* errflg) {
  if (errflg) *errflg = 0;
  if (!currentHost) return fail(errflg, "c_sysfnc", "called outside a user subroutine");
  if (!state) return fail(errflg, "c_sysfnc", "state is a null pointer");
  const std::string name = textOf(fncnam);
  if (equalsIgnoreCase(name, "TIME")) {
    *state = currentHost->time();
    return;
  }
  // The host knows positions and velocities only (no accelerations), and usersub.h promises DX..WM; the
  // measures after WM are for expressions until a host can serve them.
  std::optional<MarkerMeasure> measure = findMarkerMeasure(name);
  if (measure && *measure > MarkerMeasure::WM) measure.reset();
  if (!measure) {
    return fail(errflg, "c_sysfnc", "unknown function \"" + name +
                                        "\" (available: TIME, DX DY DZ DM, VX VY VZ VM, WX WY WZ WM)");
  }
  const std::optional<MeasureMarkers> markers = measureMarkers("c_sysfnc", ipar, nsize, errflg);
  if (!markers) return;
  if (*measure >= MarkerMeasure::VX) currentHost->velocitiesRead();
  *state = markerMeasure(*measure, markers->i, markers->j, markers->axes);
}

void c_sysary(const char* fncnam, int* ipar, int nsize, double* states, int* nstates, int* errflg) {
  if (errflg) *errflg = 0;
  if (nstates) *nstates = 0;
  if (!currentHost) return fail(errflg, "c_sysary", "called outside a user subroutine");
  if (!states) return fail(errflg, "c_sysary", "states is a null pointer");
  const std::string name = toUpper(textOf(fncnam));
  if (name != "DISP" && name != "TDISP" && name != "VEL" && name != "TVEL") {
    return fail(errflg, "c_sysary", "unknown array \"" + textOf(fncnam) + "\" (available: DISP, TDISP, VEL, TVEL)");
  }
  const std::optional<MeasureMarkers> m = measureMarkers("c_sysary", ipar, nsize, errflg);
  if (!m) return;
  const bool displacement = name == "DISP" || name == "TDISP";
  if (!displacement) currentHost->velocitiesRead();
  const int group = displacement ? 0 : 4;  // DX.. or VX..
  for (int k = 0; k < 3; ++k) {
    states[k] = markerMeasure(static_cast<MarkerMeasure>(group + k), m->i, m->j, m->axes);
  }
  int count = 3;
  if (name == "DISP") {
    // The orientation of i relative to j as body 3-1-3 angles psi, theta, phi.
    const Vector3 angles = euler313FromRotation(m->j.rotation.transpose() * m->i.rotation);
    for (int k = 0; k < 3; ++k) states[3 + k] = angles[k];
    count = 6;
  } else if (name == "VEL") {
    for (int k = 0; k < 3; ++k) {
      states[3 + k] = markerMeasure(static_cast<MarkerMeasure>(8 + k), m->i, m->j, m->axes);
    }
    count = 6;
  }
  if (nstates) *nstates = count;
}

void c_varval(int id, double* value, int* errflg) {
  if (errflg) *errflg = 0;
  if (!currentHost) return fail(errflg, "c_varval", "called outside a user subroutine");
  if (!value) return fail(errflg, "c_varval", "value is a null pointer");
  const std::optional<double> found = currentHost->variable(id);
  if (!found) return fail(errflg, "c_varval", "no Reference_Variable id=" + std::to_string(id) + " in the model");
  *value = *found;
}

void c_akispl(double xval, double zval, int id, int iord, double* array, int* errflg) {
  splineUtility("c_akispl", true, xval, zval, id, iord, array, errflg);
}

void c_cubspl(double xval, double zval, int id, int iord, double* array, int* errflg) {
  splineUtility("c_cubspl", false, xval, zval, id, iord, array, errflg);
}

void c_errmes(int errflg, const char* message, int id, const char* endflg) {
  if (!currentHost) return;
  const std::string end = textOf(endflg);
  const bool stop = equalsIgnoreCase(end, "STOP") || equalsIgnoreCase(end, "TRUE") || equalsIgnoreCase(end, "YES") ||
                    end == "1";
  currentHost->subroutineMessage(id, textOf(message), errflg != 0, stop);
}

void c_step(double x, double x0, double h0, double x1, double h1, int iord, double* value, int* errflg) {
  if (errflg) *errflg = 0;
  if (!value) return fail(errflg, "c_step", "value is a null pointer");
  if (!(x0 < x1)) {
    return fail(errflg, "c_step", "x0 (" + formatReal(x0) + ") must be smaller than x1 (" + formatReal(x1) + ")");
  }
  if (iord < 0 || iord > 2) return fail(errflg, "c_step", "iord must be 0, 1 or 2, not " + std::to_string(iord));
  *value = iord == 0 ? step(x, x0, h0, x1, h1) : stepDerivative(x, x0, h0, x1, h1, iord);
}

void c_impact(double x, double xdot, double x1, double k, double e, double cmax, double d, int iord, double* vector,
              int* errflg) {
  if (errflg) *errflg = 0;
  if (!vector) return fail(errflg, "c_impact", "vector is a null pointer");
  if (!(k >= 0) || !(e >= 1) || !(cmax >= 0) || !(d > 0)) {
    return fail(errflg, "c_impact", "needs k >= 0, e >= 1, cmax >= 0 and d > 0 (got k=" + formatReal(k) +
                                        ", e=" + formatReal(e) + ", cmax=" + formatReal(cmax) + ", d=" + formatReal(d) + ")");
  }
  if (iord != 0 && iord != 1) return fail(errflg, "c_impact", "iord must be 0 or 1, not " + std::to_string(iord));
  const ImpactValue impact = impactFunction(x, xdot, x1, k, e, cmax, d);
  if (iord == 0) {
    vector[0] = impact.force;
  } else {
    vector[0] = impact.byPosition;
    vector[1] = impact.byVelocity;
  }
}

void c_get_ncontacts(int id, int i_gra_id, int j_gra_id, int* ncontacts, int* errflg) {
  if (errflg) *errflg = 0;
  if (ncontacts) *ncontacts = 0;
  if (!currentHost) return fail(errflg, "c_get_ncontacts", "called outside a user subroutine");
  const std::vector<ContactPostPoint>* points = currentHost->contactPoints(id, i_gra_id, j_gra_id);
  if (!points) {
    return fail(errflg, "c_get_ncontacts", "Force_Contact id=" + std::to_string(id) + " has no contact between " +
                                               "Post_Graphic id=" + std::to_string(i_gra_id) + " and id=" +
                                               std::to_string(j_gra_id) + " at this output (call it from CONTACTPOST)");
  }
  if (ncontacts) *ncontacts = static_cast<int>(points->size());
}

void c_get_contact_post(int id, int i_gra_id, int j_gra_id, const char* type, int rm, int index, double* result,
                        int* nresults, int* errflg) {
  if (errflg) *errflg = 0;
  if (nresults) *nresults = 0;
  const char* utility = "c_get_contact_post";
  if (!currentHost) return fail(errflg, utility, "called outside a user subroutine");
  if (!result) return fail(errflg, utility, "result is a null pointer");
  const std::vector<ContactPostPoint>* points = currentHost->contactPoints(id, i_gra_id, j_gra_id);
  if (!points) {
    return fail(errflg, utility, "Force_Contact id=" + std::to_string(id) + " has no contact between Post_Graphic id=" +
                                     std::to_string(i_gra_id) + " and id=" + std::to_string(j_gra_id) +
                                     " at this output (call it from CONTACTPOST)");
  }
  if (index < 0 || index >= static_cast<int>(points->size())) {
    return fail(errflg, utility, "index " + std::to_string(index) + " is outside the pair's " +
                                     std::to_string(points->size()) + " contact points (0-based)");
  }
  const ContactPostPoint& point = (*points)[static_cast<size_t>(index)];
  const std::string name = toUpper(textOf(type));
  const double* scalar = name == "PD" ? &point.penetration
                         : name == "PD_VEL" ? &point.penetrationRate
                         : name == "SLIP_VEL" ? &point.slipSpeed
                                              : nullptr;
  if (scalar) {
    result[0] = *scalar;
    if (nresults) *nresults = 1;
    return;
  }
  const Vector3* vector = name == "POS"                ? &point.position
                          : name == "VEL"              ? &point.velocity
                          : name == "NORMAL"           ? &point.normal
                          : name == "NORMAL_FORCE"     ? &point.normalForce
                          : name == "TANGENTIAL_FORCE" ? &point.tangentialForce
                                                       : nullptr;
  Vector3 total;
  if (name == "TOTAL_FORCE") {
    total = point.normalForce + point.tangentialForce;
    vector = &total;
  }
  if (!vector) {
    return fail(errflg, utility, "unknown type \"" + textOf(type) +
                                     "\" (available: PD, PD_VEL, SLIP_VEL, POS, VEL, NORMAL, NORMAL_FORCE, "
                                     "TANGENTIAL_FORCE, TOTAL_FORCE)");
  }
  const std::optional<MarkerMotion> axes = currentHost->markerMotion(rm);
  if (!axes) return fail(errflg, utility, "no Reference_Marker id=" + std::to_string(rm) + " for rm");
  // Positions are measured from rm's origin; the other vectors only turn into its axes.
  const Vector3 inAxes = name == "POS" ? Vector3(axes->rotation.transpose() * (*vector - axes->position))
                                       : Vector3(axes->rotation.transpose() * *vector);
  for (int k = 0; k < 3; ++k) result[k] = inAxes[k];
  if (nresults) *nresults = 3;
}

}  // extern "C"
