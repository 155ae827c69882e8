/*
 * Lodestone named contact laws: the C interface a law library is written against.
 *
 * A law library adds normal or friction laws that a deck then names like a built-in one, with the law's own
 * attributes, validated by the reader from the law's parameter table:
 *
 *     <Force_Contact ... cnf_type="IMPACT" stiffness="1e5" ... cff_type="LUGRE" mu_static="0.5" ... />
 *
 * The library exports one function, lodestone_register_laws, which returns its laws. Lodestone loads the
 * libraries listed in the LODESTONE_LAWS environment variable (or given with --laws) before it reads a deck.
 * Each law is a lodestone_law: plain C data and function pointers, with its size and the ABI version it was built
 * against, which Lodestone checks before it reads anything else of it; a law built against another version is
 * refused with a message, never called. See README.md, "Named contact laws", and models/usersub/lugre_friction.c.
 *
 * Rules that keep old libraries safe: the signature of lodestone_register_laws and the first three fields of
 * lodestone_law (size, abi_version, keyword) never change; any other change raises LODESTONE_LAW_ABI_VERSION, except
 * that lodestone_law_host may grow at its end (a library reads its size before using a later field).
 */
#ifndef LODESTONE_CONTACT_LAW_H
#define LODESTONE_CONTACT_LAW_H

#include <stddef.h>

#if defined(_WIN32)
#define LODESTONE_LAW_EXPORT __declspec(dllexport)
#else
#define LODESTONE_LAW_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define LODESTONE_LAW_ABI_VERSION 1

/* What Lodestone hands a law library: utilities a law may call at any time. */
typedef struct lodestone_law_host {
  size_t size;     /* sizeof(lodestone_law_host) of the running Lodestone */
  int abi_version; /* LODESTONE_LAW_ABI_VERSION of the running Lodestone */
  /* MotionSolve's STEP: a cubic from h0 at x0 to h1 at x1, constant outside. */
  double (*step)(double x, double x0, double h0, double x1, double h1);
  /* A line for the run log, prefixed with the law's keyword. */
  void (*message)(const char *keyword, const char *text);
  /* Only inside a law's check, with the context check was given: a combination of values that is legal but almost
   * surely a mistake, said to the deck's author as a warning (report() makes an error). Added to version 1 later:
   * use it only when host->size > offsetof(lodestone_law_host, warn). */
  void (*warn)(void *context, const char *text);
} lodestone_law_host;

enum lodestone_law_kind { LODESTONE_NORMAL_LAW = 1, LODESTONE_FRICTION_LAW = 2 };

/* One parameter: an attribute of Force_Contact when the element names the law. */
typedef struct lodestone_law_parameter {
  const char *name;    /* attribute name: lower case letters, digits and '_', starting with a letter */
  const char *meaning; /* one line for `lodestone elements Force_Contact`, with the unit */
  int required;        /* nonzero: the deck must give it */
  double default_value;
  /* Allowed range; -HUGE_VAL / HUGE_VAL for no bound. *_excluded nonzero: the bound itself is not allowed. */
  double minimum;
  int minimum_excluded;
  double maximum;
  int maximum_excluded;
} lodestone_law_parameter;

/* One contact point, as a law sees it. Vectors are in ground. */
typedef struct lodestone_contact_point {
  double time;
  /* Time since `state` was last advanced (0 when the contact has just begun): a stateful law integrates its state
   * over this interval to get the force now. */
  double elapsed;
  double penetration;      /* > 0 while overlapping */
  double penetration_rate; /* > 0 while approaching */
  double area;             /* overlap area on the contact plane, when the law sets needs_area; else 0 */
  double effective_mass;   /* m_I·m_J/(m_I + m_J), ground counting as infinite */
  double normal[3];        /* unit, from J to I */
  double slip_velocity[3]; /* velocity of I relative to J at the point, tangential part */
  double normal_force;     /* friction laws: the normal force at the point (> 0 pushing apart) */
  int differencing;        /* nonzero while the Jacobian is differenced */
} lodestone_contact_point;

typedef void (*lodestone_law_problem)(void *context, const char *problem);

typedef struct lodestone_law {
  size_t size;             /* sizeof(lodestone_law) as the library was built */
  int abi_version;         /* LODESTONE_LAW_ABI_VERSION as the library was built */
  const char *keyword;     /* what cnf_type / cff_type say: upper case, e.g. "LUGRE" */
  int kind;                /* LODESTONE_NORMAL_LAW or LODESTONE_FRICTION_LAW */
  const char *summary;     /* one line for `lodestone elements Force_Contact` */
  const lodestone_law_parameter *parameters;
  int parameter_count;
  /* Numbers of state each contact point keeps (LuGre's bristle deflection: 3); 0 for a law without state. A
   * point's state starts at zero when its contact begins. */
  int state_size;
  int needs_area;          /* nonzero: compute lodestone_contact_point.area */
  void *user_data;         /* the library's own, never touched by Lodestone */
  /* Optional: rules between parameters, checked when the deck is read and again when the model is built. Call
   * report(context, "what is wrong and what would be right") once per problem; host->warn(context, "...") for values
   * that are legal but almost surely a mistake. A parameter whose value could not be read is NaN. */
  void (*check)(const struct lodestone_law *law, const double *values, lodestone_law_problem report, void *context);
  /* Normal laws: the force magnitude along the normal, > 0 pushing the bodies apart. `values` holds the
   * parameters in table order; `state` the point's state at the last accepted step (NULL when state_size is 0). */
  double (*normal_force)(const struct lodestone_law *law, const double *values, const lodestone_contact_point *point,
                         const double *state);
  /* Friction laws: the friction force on I (ground, normally opposing slip_velocity) into force[3]. */
  void (*friction_force)(const struct lodestone_law *law, const double *values, const lodestone_contact_point *point,
                         const double *state, double force[3]);
  /* Laws with state: called once per accepted integrator step for every contact point, with the kinematics at the
   * step's end and `elapsed` since the previous call; replaces `state` by the state at point->time. */
  void (*advance_state)(const struct lodestone_law *law, const double *values, const lodestone_contact_point *point,
                        double *state);
} lodestone_law;

/* Defined by a law library: its laws, *count of them. Called once, when the library is loaded; `host` stays valid
 * while the library is loaded. */
LODESTONE_LAW_EXPORT const lodestone_law *const *lodestone_register_laws(const lodestone_law_host *host, int *count);

typedef const lodestone_law *const *(*lodestone_register_laws_function)(const lodestone_law_host *host, int *count);

#ifdef __cplusplus
}
#endif

#endif /* LODESTONE_CONTACT_LAW_H */
