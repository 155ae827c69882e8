// The contact-law descriptor: what a normal or friction law is to the rest of Lodestone — its keyword, its
// parameter table (which becomes Force_Contact attributes), its cross-parameter checks and its formula. Every
// built-in law (plugins/builtin/) is one descriptor, registered once by its keyword; Force_Contact only ever
// calls laws through these descriptors, so a formula lives in exactly one place. A law from a law library (a named
// law, plugins/named_laws) is the same descriptor around the library's C struct: the same parameter table and
// checks, with its formula called through `named` (which also carries state per contact point).
#pragma once

#include <cmath>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collision/shape.h"
#include "lodestone/contact_law.h"
#include "solver/core/schema.h"
#include "solver/core/units.h"

namespace lodestone {

// PFC's property inheritance: how a pair takes a parameter its Force_Contact leaves out from the surface properties
// (Contact_Surface) of its two pieces. Series: 1/k = 1/k1 + 1/k2, and Minimum: min(μ1, μ2), both pieces holding it;
// FromI, FromJ: the I or the J piece's own (0 when it holds none: a piece without a magnet).
enum class Inheritance { None, Series, Minimum, FromI, FromJ };

// One parameter of a law, written in the deck as an attribute of Force_Contact.
struct LawParameter {
  std::string name;           // attribute name, lower case: "stiffness"
  int size = 1;               // 1 for a number; 3 for a vector written "x y z" (dipole_mo1)
  bool required = false;
  double defaultValue = 0;    // used when not required and absent (every component, for vectors)
  Range range;                // for numbers (vectors: unchecked)
  std::string meaning;        // one line, shown by `lodestone elements Force_Contact`
  // Inheritable parameters (not None) have no default: left out, they are NaN in the element's values and each pair
  // takes them from its pieces' surface property `surfaceProperty` ("kn", "fric", "dipole_mo").
  Inheritance inheritance = Inheritance::None;
  std::string surfaceProperty;
};

// An expression a law takes from the deck instead of a formula of its own (cnf_type="EXPRESSION"'s
// normal_force_expression): a Force_Contact attribute whose text the element compiles and evaluates at each contact
// point (elements/contact_laws), with the contact-point symbols (DELTA…) its kind of law allows.
struct LawExpression {
  std::string name;     // attribute name, lower case: "normal_force_expression"
  std::string meaning;  // one line on what it gives and reads, as a parameter's meaning
};

// The values of a law's parameters, in the order of its table; a vector parameter takes `size` slots.
using LawValues = std::span<const double>;

// Number of slots a parameter table takes, and where parameter `name` starts (−1 when absent).
int slotCount(const std::vector<LawParameter>& parameters);
int slotOf(const std::vector<LawParameter>& parameters, std::string_view name);

// What the element knows about one contact point when it asks for the normal force.
struct NormalInput {
  double penetration = 0;      // δ > 0 while overlapping
  double penetrationRate = 0;  // δ̇ > 0 while approaching
  double area = 0;             // overlap area on the contact plane; 0 when the geometry does not give one
  double effectiveMass = 0;    // m_I·m_J/(m_I + m_J) (ground counts as infinite), mass factor applied
};

// How the gap between a pair's graphics changes as they move: its gradient over a translation of the I graphic
// (ground), over a turn of the I graphic about its centre and over a turn of the J graphic about its centre (both in
// ground axes, per radian). A translation of J changes the gap by minus I's. A law whose field is a potential of the
// gap, E(gap), applies −E'·(these) as force on I and moments on I and J (IPC's barrier).
struct GapGradient {
  Vector3 translationI = Vector3::Zero();
  Vector3 rotationI = Vector3::Zero();
  Vector3 rotationJ = Vector3::Zero();
};

// Forces and moments a law applies at a distance between the two graphics of a pair (DIPOLE's magnets, IPC's
// barrier).
struct FieldInput {
  Pose graphicI;               // the I graphic's centre in ground, with its body's axes (law vectors are given in them)
  Pose graphicJ;
  double gap = 0;              // signed surface distance (> 0 apart)
  UnitSystem units;            // to express physical constants (μ0) in the deck's units
  GapGradient gapGradient;     // filled only for laws with needsGapGradient; zero otherwise
};
struct FieldOutput {
  Vector3 forceOnI = Vector3::Zero(), forceOnJ = Vector3::Zero();    // ground, at the graphic centres
  Vector3 momentOnI = Vector3::Zero(), momentOnJ = Vector3::Zero();  // ground
};

// The two pieces of a graphic pair as PFC's property rules see them: a ball (a Sphere graphic) has its radius, any
// other shape (PFC's facet) 0.
struct PairPieces {
  double ballRadiusI = 0, ballRadiusJ = 0;
};

// Where a contact begins (its penetration rises through 0) or ends (falls through 0).
enum class ContactChange { Onset, Separation };

// How smoothly a law's force begins at an onset, or ends at a separation: how many of its time derivatives stay
// bounded through the event. IDAS's BDF of order k (1 to 5) takes the velocity's (k+1)-th derivative, the force's k-th,
// to be bounded over the steps it looks back on; where the force is less smooth than that, the history from before
// the event spoils the steps after it, and IDAS restarts at the event (see Simulation::run). 0: the force jumps (a
// dashpot c·δ̇ acting from the first instant), which every order suffers; 1: the force is continuous but its rate jumps
// (a linear spring c·δ) or its second derivative is unbounded (Hertz, δ^1.5); 2: its second derivative jumps (STEP's
// cubic ramp, δ²); kSmoothForce: nothing changes that any order sees (a force that is already 0 before the event, as a
// clipped dashpot's is before a separation).
constexpr int kSmoothForce = 5;

// The smoothness of a power δ^e of the penetration where it begins (δ growing in proportion to time): its j-th time
// derivative, proportional to t^(e−j), stays bounded for j ≤ e.
inline int powerSmoothness(double exponent) {
  return exponent >= kSmoothForce ? kSmoothForce : static_cast<int>(std::floor(exponent));
}

// A spring of smoothness `spring` with a dashpot c·δ̇ that acts from the first instant of contact (`damped`): the force
// jumps by c·δ̇ at an onset, and at a separation the receding dashpot has clipped it to 0 already. Undamped, the
// spring's own smoothness at both.
inline int dashpotSmoothness(bool damped, int spring, ContactChange change) {
  if (!damped) return spring;
  return change == ContactChange::Onset ? 0 : kSmoothForce;
}

// What a law's rules between its parameters find: errors (values the law cannot work with) and warnings (legal
// values that are almost surely a mistake, such as a dynamic friction coefficient above the static one). Each
// message says what would be right.
struct LawFindings {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};
using LawCheck = std::function<void(LawValues values, LawFindings& findings)>;

struct NormalLaw {
  std::string keyword;                  // "IMPACT", upper case
  std::string summary;                  // one line for `lodestone elements`
  std::vector<LawParameter> parameters;
  // A law given by the deck's expressions (EXPRESSION): each one required. Its `force` is null; the element evaluates
  // the expressions.
  std::vector<LawExpression> expressions;
  // Rules between parameters (and any the ranges cannot say). Appends one message per finding, each saying what
  // would be right: "stiction_trans_vel (0.2) must be smaller than friction_trans_vel (0.1)". A parameter the deck
  // gave a value that could not be read is NaN (its problem is said already).
  LawCheck check;
  // The force magnitude along the normal at one contact point; ≥ 0 unless the law can pull. nullptr for a named
  // law, whose named->normal_force is called instead.
  double (*force)(LawValues values, const NormalInput& input) = nullptr;
  const lodestone_law* named = nullptr;
  // A built-in normal law with state per contact point for some parameter values (DIPOLE's incremental normal force,
  // lin_mode 1), kept and advanced as a friction law's is (FrictionLaw::stateful): `stateSize` gives the numbers per
  // point these values need (0: none, and `force` is all there is). `stateful` gives the force from the point's state
  // at the last accepted step (`state`, zero when its contact begins; elapsed time since in `elapsed`) and, when
  // `advanced` is not null (once per accepted step), writes there the state at this instant; the two may be the same
  // numbers. Called with a null `state` (a probe of the law's stiffness) it gives the law without history, `force`.
  int (*stateSize)(LawValues values) = nullptr;
  double (*stateful)(LawValues values, const NormalInput& input, const double* state, double* advanced) = nullptr;
  // How smooth the force is through an onset or a separation with these parameter values (0 to kSmoothForce, see
  // kSmoothForce). nullptr: not known, taken as a jump (named laws).
  int (*smoothnessAt)(LawValues values, ContactChange change) = nullptr;
  bool needsArea = false;               // the law uses NormalInput::area (VOLUME)
  // Laws that also act without contact (DIPOLE, IPC): how far apart (surface gap) the pair still interacts, and the
  // interaction. nullptr for pure contact laws.
  double (*fieldRange)(LawValues values) = nullptr;
  void (*field)(LawValues values, const FieldInput& input, FieldOutput& output) = nullptr;
  // The field needs FieldInput::gapGradient (IPC: its force acts along the gap, not between the graphics' centres).
  // The gradient costs twelve gap evaluations per pair within range, so only laws that use it ask.
  bool needsGapGradient = false;
  // PFC's contact_activated callback event: events.csv gets a row when a contact of this law begins (DIPOLE).
  bool activationEvents = false;
  // A law whose stiffness follows from each pair's pieces (DIPOLE's emod, PFC's deformability method), for these
  // values: `valuesForPair` writes the pair's values into `pairValues` (a copy of `values`) and returns the shear
  // stiffness the pair's friction law takes as its `ks` (0: none). nullptr or false: the element's values serve every
  // pair.
  bool (*variesByPair)(LawValues values) = nullptr;
  double (*valuesForPair)(LawValues values, const PairPieces& pieces, std::span<double> pairValues) = nullptr;
  // Whether these values set the friction law's shear stiffness `ks` (DIPOLE's emod with kratio), so that the deck
  // must not give it too.
  bool (*setsShearStiffness)(LawValues values) = nullptr;
};

// What a friction law with state sees at one contact point of a patch. The law acts once per patch: the point carries
// `share` of it, so its normal force is its share of the patch's and a stiffness k of the law is share·k at the point
// (the patch's points in parallel make k), which gives k the same meaning for a sphere's one point and a face's patch.
struct FrictionInput {
  Vector3 normal = Vector3::Zero();  // unit, from J to I
  Vector3 slip = Vector3::Zero();    // tangential velocity of I relative to J at the point
  double normalForce = 0;            // the point's share of the patch's normal force
  double share = 1;                  // the part of the patch's force the point carries
  double effectiveMass = 0;          // m_I·m_J/(m_I + m_J), ground counting as infinite
  // Time since the state was stored (at the last accepted step; 0 when the contact has just begun), over which the
  // law integrates its state to give the force now: within a step the force is then implicit in the step's velocity.
  double elapsed = 0;
};

// A friction law with state at one point: its force, and how it splits the force's power −f·v (the power the
// bodies lose to it). The energy it holds (a shear spring's) counts as held energy; `strainRate` is how fast the
// law's own integration changes it, `dashpotPower` what its viscous part dissipates; the rest, −f·v − strainRate −
// dashpotPower, is dissipated by slip.
struct FrictionOutput {
  Vector3 force = Vector3::Zero();  // on I, ground
  double strain = 0;
  double strainRate = 0;
  double dashpotPower = 0;
  // Laws with a slip state (LINEAR_SHEAR): whether the point slipped at the last accepted step, and whether it slips
  // now (0 or 1); −1 for laws without one. A contact's slip changes are events (events.csv: slip_change).
  int slippedBefore = -1;
  int slipsNow = -1;
};

struct FrictionLaw {
  std::string keyword;                  // "COULOMB_ON"
  std::string summary;
  std::vector<LawParameter> parameters;
  std::vector<LawExpression> expressions;  // as NormalLaw's: the force's two tangential components (EXPRESSION)
  LawCheck check;
  // The friction coefficient μ(v) ≥ 0 at slip speed v ≥ 0; the friction force is −μ(v)·N·(slip direction).
  // μ(0) = 0 for every law, so the force is continuous through v = 0. nullptr: no friction (COULOMB_OFF), a law given
  // by expressions (EXPRESSION, evaluated by the element), a law with state (stateful below), or a named law, whose
  // named->friction_force gives the force itself.
  double (*coefficient)(LawValues values, double slipSpeed) = nullptr;
  // A built-in law with state per contact point (LINEAR_SHEAR's shear spring), kept and advanced as a named law's
  // state is (lodestone_law's state_size and advance_state): `stateSize` numbers per point, zero when its contact
  // begins. `stateful` gives the force from the point's state stored at the last accepted step (`state`), and when
  // `advanced` is not null (once per accepted step) writes there the state at this instant; the two may be the same
  // numbers. nullptr for laws without state.
  int stateSize = 0;
  void (*stateful)(LawValues values, const FrictionInput& input, const double* state, double* advanced,
                   FrictionOutput& output) = nullptr;
  const lodestone_law* named = nullptr;
  // PFC's contact_activated callback event: events.csv gets a row when a contact of this law begins (LINEAR_SHEAR).
  bool activationEvents = false;
};

// The registry: every built-in law and every named law registered so far, looked up by keyword
// (case-insensitive).
const std::vector<const NormalLaw*>& normalLaws();
const std::vector<const FrictionLaw*>& frictionLaws();
const NormalLaw* findNormalLaw(std::string_view keyword);
const FrictionLaw* findFrictionLaw(std::string_view keyword);

// Named laws join the registry here (plugins/named_laws checks them first; the keyword must be new). Laws are
// registered before decks are read; tables built from the registry (Force_Contact's attributes, the element
// catalog) compare registryVersion() with the version they were built for and rebuild when it changed.
void registerNormalLaw(const NormalLaw* law);
void registerFrictionLaw(const FrictionLaw* law);
int registryVersion();

}  // namespace lodestone
