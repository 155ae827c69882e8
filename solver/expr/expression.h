// MotionSolve's expression language (expr="…" in a deck, as Sensor_Event has): compiled once from text into a flat
// postfix program, then evaluated as often as the solver needs it without allocating or looking at text.
//
// The language, as Adams and MotionSolve define it; names are not case-sensitive and whitespace may go anywhere
// between tokens:
//   numbers     12  1.5  .5  1e-3  1.5E+2; a D right after a number means degrees (360D = 2π, 1.5D, 1e2D), so
//               "1D-3" is one degree minus 3, not 0.001
//   operators   + - * / **, unary + and -, parentheses. ** binds tighter than unary minus and groups to the right
//               (-2**2 = -4, 2**3**2 = 512, 2**-1 = 0.5); * and / tighter than + and -, both grouping to the left
//   constants   PI, DTOR (π/180), RTOD (180/π); TIME is the simulation time
//   math        SIN COS TAN ASIN ACOS ATAN SINH COSH TANH SQRT EXP LOG (natural) LOG10 ABS, AINT (truncate),
//               ANINT (round half away from zero), ATAN2(y,x), MIN(a,b), MAX(a,b), MOD(a,b) = a − AINT(a/b)·b,
//               SIGN(a,b) = |a| with the sign of b (b = 0 counts as positive)
//   Adams       STEP(x,x0,h0,x1,h1), STEP5(x,x0,h0,x1,h1), IMPACT(x,ẋ,x1,k,e,cmax,d),
//               BISTOP(x,ẋ,x1,x2,k,e,cmax,d), SHF(x,x0,a,w,phi,b) = a·sin(w·(x−x0) − phi) + b
//   measures    DX DY DZ (i[,j[,k]]), DM (i[,j]); VX VY VZ ACCX ACCY ACCZ WDTX WDTY WDTZ (i[,j[,k[,l]]]),
//               VM ACCM WDTM VR (i[,j[,l]]), VR the rate of DM (radial velocity, NaN at coincident markers);
//               WX WY WZ (i[,j[,k]]), WM (i[,j]); AX AY AZ PSI THETA PHI YAW PITCH ROLL (i[,j]). Marker i relative
//               to marker j, components in k's axes, time derivatives seen from l's frame; the ids are whole-number
//               literals, 0 (or left out) is ground. The formulas are markerMeasure's (solver/core/marker_measures.h).
//   variables   VARVAL(id): the value of Reference_Variable id (a whole-number literal), which the context gives;
//               PINVAL(id, i), POUVAL(id, i): the i-th Reference_Variable a Control_PlantInput (Control_PlantOutput)
//               id lists, literals, bound to that variable by whoever knows the deck's plants (bindPlantRead)
//   states      DIF(id), DIF1(id): the value of Control_Diff id's state and its time derivative (id a literal)
//   contacts    CONTACT(id, jflag, comp, rm): the loads of Force_Contact id (all its incidents) on its I body
//               (jflag 0) or J body (1) at that body's CG: comp 1 |F|, 2-4 Fx Fy Fz, 5 |T|, 6-8 Tx Ty Tz, components
//               in marker rm's axes (0: ground). CONTACT(id, index, rm), told apart by its three arguments, as
//               MotionSolve does: index 1, the largest penetration of its incidents (the one index Lodestone has).
//               All arguments are whole-number literals; the context gives the loads (ExpressionContext::contact)
//   element     JOINT JPRIM MOTION SFORCE VFORCE VTORQ GFORCE BUSH SPDP (id, jflag, comp, rm): the loads of
//   loads       Constraint_Joint, Constraint_Jprim, Motion_Joint, Force_Scalar_TwoBody, Force_Vector_* (of the type
//               ForceOnly, TorqueOnly, ForceAndTorque), Force_Bushing, Force_SpringDamper id at its I marker (jflag 0)
//               or J marker (1): comp 1 |F|, 2-4 Fx Fy Fz, 5 |T|, 6-8 Tx Ty Tz (torque about that marker's origin),
//               in marker rm's axes (0: ground); FX FY FZ TX TY TZ (i[,j[,k]]), FM TM (i[,j]): the force on marker
//               i and the torque about its origin summed over every joint, motion and force element acting between
//               markers i and j (j 0 or left out: every one acting at i), in k's axes. Literals; the context gives
//               the loads (ExpressionContext::elementLoads, markerLoads)
//   contact     DELTA, DELTA_DOT, SLIP_T1, SLIP_T2, NORMAL_FORCE: one contact point's penetration, its rate, its slip
//   point       along the contact frame's two tangents and its normal force, readable only where compile allows them
//               (a Force_Contact's cnf_type="EXPRESSION" and cff_type="EXPRESSION"; ContactPointSymbol)
//   splines     AKISPL(x, z, id[, iord]), CUBSPL(x, z, id[, iord]): Reference_Spline id by Akima's method or the
//               natural cubic spline, linear in z across a family of curves; INTERP(x, method, id[, iord]), method
//               1 linear, 3 the cubic spline; iord (0-2) the x-derivative. ARYVAL(id, n): element n of
//               Reference_Array id. Ids, iord, method and n are whole-number literals; the context gives the data
//   logic       IF(e: neg, zero, pos) (a comma after e is accepted too, as MotionSolve's own examples write it),
//               DIM(a,b) = max(a−b, 0), HAVSIN(x,x0,h0,x1,h1)
//   series      POLY(x,x0,a0…a30), CHEBY(x,x0,a0…a30), FORCOS(x,x0,w,a0…a30), FORSIN(x,x0,w,a0…a30)
// Other MotionSolve names (CURVE, DELAY…) are refused with a message saying they are not available yet.
// Argument counts, marker ids and constant arguments that cannot work (STEP with x0 >= x1, a constant part that is
// not a finite number such as 1/0) are errors when the text is compiled, each with the column it is at. Values that
// become infinite or NaN only while the model moves (LOG(DX(2)) at DX = 0) are IEEE results, for the caller to check.
// Constant sub-expressions are computed once when compiling.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "solver/core/marker_measures.h"

namespace lodestone {

// CONTACT(id, index, rm)'s indices (docs/expressions.md, CONTACT): Simscape's sensing of a contact, J the base
// geometry and I the follower. The first of each vector's components; kContactIndexCount the last index.
enum ContactIndex : int {
  kContactPenetration = 1,       // the largest penetration, ≥ 0
  kContactSignal = 2,            // 1 while some incident touches, else 0
  kContactSeparation = 3,        // the signed distance: the smallest gap, or −depth in contact
  kContactNormalForce = 4,       // Σ |normal force| over the incidents' points
  kContactFrictionForce = 5,     // Σ |friction force|
  kContactNormalVelocity = 6,    // z of I's velocity relative to J in the contact frame (< 0 approaching)
  kContactTangentialX = 7,       // and its x, y (8)
  kContactPointInJ = 9,          // 9-11: the contact point in J's graphic's reference marker
  kContactFrameInJ = 12,         // 12-15: the contact frame's Euler parameters relative to that marker
  kContactPointInI = 16,         // 16-18, 19-22: the same for I's graphic
  kContactFrameInI = 19,
  kContactPoint = 23,            // 23-25: the contact point, from rm in rm's axes
  kContactNormal = 26,           // 26-28: the contact normal (from J to I) in rm's axes
};
constexpr int kContactIndexCount = 28;

// The loads of one Force_Contact at a state, summed over its incidents (graphic pairs), in ground: the force on its
// I body and the torque about that body's CG, the same on its J body (about the ground origin when J is ground),
// and the largest penetration of its incidents (0 apart). Then what CONTACT(id, index, rm) reads besides
// (ContactIndex; NaN where whoever filled it in did not measure them): the forces' magnitudes summed over the
// incidents, the smallest signed distance of its graphic pairs, and the kinematics of
// the contact frame of the deepest incident touching (velocities and points 0, rotations the identity when none
// touches).
struct ContactLoads {
  Vector3 forceOnI = Vector3::Zero(), torqueOnI = Vector3::Zero();
  Vector3 forceOnJ = Vector3::Zero(), torqueOnJ = Vector3::Zero();
  double penetration = 0;
  double inContact = 0;
  double separation = 0;
  double normalForce = 0, frictionForce = 0;
  double normalVelocity = 0;
  std::array<double, 2> tangentialVelocity{};
  Vector3 pointInJ = Vector3::Zero(), pointInI = Vector3::Zero();
  Vector4 frameInJ = Vector4(1, 0, 0, 0), frameInI = Vector4(1, 0, 0, 0);
  Vector3 point = Vector3::Zero();   // in ground
  Vector3 normal = Vector3::Zero();  // in ground
};

// The elements whose loads JOINT, JPRIM, MOTION, SFORCE, VFORCE, VTORQ, GFORCE, BUSH and SPDP read: Constraint_Joint,
// Constraint_Jprim, Motion_Joint, Force_Scalar_TwoBody, Force_Vector_TwoBody and _OneBody, Force_Bushing,
// Force_SpringDamper. None: an element no function reads (a magnet).
enum class LoadSource : std::uint8_t {
  None, Joint, Jprim, Motion, ScalarForce, VectorForce, Bushing, SpringDamper, Beam, Field,
  Friction  // FRICTION(id, comp, rm): a Force_JointFriction (FrictionMeasures, not MarkerLoads)
};

// What one element applies at its two markers at a state, in ground: the force on each and the torque about each
// marker's origin (FX…TM read the I side only: the sum on marker i).
struct MarkerLoads {
  Vector3 forceOnI = Vector3::Zero(), torqueOnI = Vector3::Zero();
  Vector3 forceOnJ = Vector3::Zero(), torqueOnJ = Vector3::Zero();
};

// What FRICTION(id, comp, rm) reads of one Force_JointFriction at a state, vectors in ground: its force and torque on
// the joint's I marker; the friction coefficient in effect (the blend of μs and μd that multiplies the normal load)
// times the joint's z_J, as a translational (TRANSLATIONAL) or rotational (REVOLUTE) coefficient; and the slip, I's
// velocity (at I's origin) and angular velocity relative to J.
struct FrictionMeasures {
  long id = 0;
  int markerJ = 0;  // the joint's J marker id: whose axes FRICTION uses when it names no rm
  Vector3 force = Vector3::Zero(), torque = Vector3::Zero();
  Vector3 translationalCoefficient = Vector3::Zero(), rotationalCoefficient = Vector3::Zero();
  Vector3 slipVelocity = Vector3::Zero(), slipAngularVelocity = Vector3::Zero();
};

// One element-load function an expression calls (JOINT(3,…), FX(5,6)…): its name as written in capitals, the element
// kind (None for FX…TM, whose id is then marker i), the id, and the 1-based column of the call.
struct LoadRead {
  const char* function = "";
  LoadSource source = LoadSource::None;
  int id = 0;
  int column = 0;
};

// The values of one contact point that a contact law given by expressions reads (Force_Contact cnf_type="EXPRESSION",
// cff_type="EXPRESSION"; docs/contact.md). Elsewhere there is no contact point, so compile refuses them unless told.
enum class ContactPointSymbol : std::uint8_t {
  Penetration,      // DELTA: δ > 0 while overlapping
  PenetrationRate,  // DELTA_DOT: δ̇ > 0 while approaching
  SlipT1,           // SLIP_T1, SLIP_T2: the slip of I on J along the contact frame's tangents t1, t2
  SlipT2,
  NormalForce,      // NORMAL_FORCE: the patch's normal force (friction expressions only)
};
constexpr int kContactPointSymbolCount = 5;
// Which contact-point symbols an expression may read: bit (1 << symbol) each; 0 outside contact-law expressions.
using ContactPointSymbols = unsigned;
constexpr ContactPointSymbols contactPointSymbol(ContactPointSymbol symbol) {
  return 1u << static_cast<unsigned>(symbol);
}

// How a Reference_Spline is interpolated: AKISPL (Akima), CUBSPL (natural cubic spline), INTERP method 1 (linear)
// and 3 (the cubic spline).
enum class SplineMethod : std::uint8_t { Akima, Cubic, Linear };

// A data element an expression names (AKISPL, CUBSPL, INTERP: a Reference_Spline; ARYVAL: a Reference_Array),
// with what the model must check once it has its data: the column of the call, the derivative order asked of a
// spline (a family of curves gives none) or the array's element.
struct DataReference {
  enum class Kind : std::uint8_t { Spline, Array } kind = Kind::Spline;
  int id = 0;
  int column = 0;           // 1-based, of the function's name
  int orderOrPosition = 0;  // Spline: iord (0 to 2); Array: n (1-based)
  std::string function;     // AKISPL, CUBSPL, INTERP, ARYVAL
};

// PINVAL(id, i) or POUVAL(id, i): the i-th variable a plant port lists. Compiling cannot know which variable that is;
// the model, which has the deck's Control_PlantInput and Control_PlantOutput elements, binds each read to it
// (Expression::bindPlantRead), after which the expression reads it as VARVAL would. Unbound, it gives NaN.
struct PlantRead {
  enum class Port : std::uint8_t { Input, Output } port = Port::Input;
  int id = 0;
  int position = 0;    // i, from 1
  int column = 0;      // 1-based, of the function's name
  int variableId = 0;  // the Reference_Variable once bound, 0 before
  const char* function() const { return port == Port::Input ? "PINVAL" : "POUVAL"; }
  const char* element() const { return port == Port::Input ? "Control_PlantInput" : "Control_PlantOutput"; }
};

// What an expression reads while it is evaluated.
class ExpressionContext {
 public:
  virtual ~ExpressionContext() = default;
  virtual double time() const = 0;
  // Marker `id` in ground: position, rotation (axes as columns), velocity, angular velocity, acceleration,
  // angular acceleration. Id 0 is the ground frame (at rest at the origin, identity axes); an expression never
  // asks for it, but a context should answer it all the same.
  virtual MarkerMotion marker(int id) const = 0;
  // VARVAL(id): the value of Reference_Variable `id` at this time and state. A context without variables answers
  // NaN (a model checks the ids VARVAL names when it is built, so only a bare context can be asked).
  virtual double variable(int id) const;
  // CONTACT(id, …): what Force_Contact `id` applies at this time and state, or nothing when the context has no
  // contacts (CONTACT then gives NaN; a model checks the ids when it is built, so only a bare context is asked).
  virtual std::optional<ContactLoads> contact(int id) const;
  // JOINT(id, …), SFORCE(id, …)…: what element `id` of kind `source` applies at its markers at this time and state;
  // zeros for an element the model has but is switched off; nothing when the context has no loads (NaN then).
  virtual std::optional<MarkerLoads> elementLoads(LoadSource source, int id) const;
  // FX…TM(i, j): the force on marker i and the torque about its origin from every joint, motion and force element
  // acting between markers i and j (j = 0: at i), in forceOnI and torqueOnI; nothing when the context has no loads.
  virtual std::optional<MarkerLoads> markerLoads(int markerI, int markerJ) const;
  // FRICTION(id, …): what Force_JointFriction `id` does at this time and state; nothing when the context has no
  // loads (NaN then).
  virtual std::optional<FrictionMeasures> friction(int id) const;
  // DELTA, SLIP_T1…: the contact point being evaluated; NaN for a context without one (compile lets them through
  // only where the caller gives a contact point).
  virtual double contactPoint(ContactPointSymbol symbol) const;
  // AKISPL, CUBSPL, INTERP: the `order`-th x-derivative of Reference_Spline `id` at (x, z); NaN for a context
  // without data (a model checks the ids when it is built).
  virtual double spline(SplineMethod method, int id, double x, double z, int order) const;
  // ARYVAL(id, n): element n (1-based) of Reference_Array `id`; NaN for a context without data.
  virtual double arrayValue(int id, int position) const;
  // DIF(id) (derivative false) and DIF1(id) (true): the state of Control_Diff `id` and its time derivative; NaN for
  // a context without Control_Diff states (a model checks the ids when it is built).
  virtual double differentialState(int id, bool derivative) const;
  // SENVAL(id): the value Sensor_Evaluate `id` stored when a Sensor_Event naming it last fired (0 before any has);
  // NaN for a context without stored values (a model checks the ids when it is built).
  virtual double sensorValue(int id) const;
};

struct ExpressionError {
  int column = 0;        // 1-based column in the expression text where the problem is
  std::string message;   // e.g. "unknown function 'SINN'", "DX takes 1 to 3 marker ids, got 4"
  // The problems after this one, left to right: names the compiler does not know are each said, and it reads on
  // past them (past a mistake in the syntax it cannot).
  std::vector<ExpressionError> further;
};

class Expression {
 public:
  // Compiles once; the error names the first problem in the text, and any further names it does not know.
  // `contactPoint`: the contact-point symbols the expression may read (DELTA…; none by default), each of the others
  // an error at its column.
  static std::variant<Expression, ExpressionError> compile(std::string_view text,
                                                           ContactPointSymbols contactPoint = 0);

  // Fast: no allocation, no string work. The context is asked for TIME and for each nonzero marker a measure uses.
  double evaluate(const ExpressionContext& context) const;

  // Every nonzero marker id the expression names, in order of appearance, without repeats (for reference checks),
  // and the 1-based column of each one's first appearance (for the message when the deck lacks it).
  const std::vector<int>& markerIds() const { return markerIds_; }
  const std::vector<int>& markerColumns() const { return markerColumns_; }
  // The same for the Reference_Variable ids VARVAL names, and those PINVAL and POUVAL read once bound.
  const std::vector<int>& variableIds() const { return variableIds_; }
  const std::vector<int>& variableColumns() const { return variableColumns_; }
  // The same for the Force_Contact ids CONTACT names.
  const std::vector<int>& contactIds() const { return contactIds_; }
  const std::vector<int>& contactColumns() const { return contactColumns_; }
  // The same for the Control_Diff ids DIF and DIF1 name.
  const std::vector<int>& differentialIds() const { return differentialIds_; }
  const std::vector<int>& differentialColumns() const { return differentialColumns_; }
  // The same for the Sensor_Evaluate ids SENVAL names.
  const std::vector<int>& sensorValueIds() const { return sensorValueIds_; }
  const std::vector<int>& sensorValueColumns() const { return sensorValueColumns_; }
  // The Control_Diff ids DIF1 names (their rates), without repeats.
  const std::vector<int>& differentialRateIds() const { return differentialRateIds_; }
  // Every Reference_Spline and Reference_Array call, in order of appearance.
  const std::vector<DataReference>& dataReferences() const { return dataReferences_; }
  // Every PINVAL and POUVAL call, in order of appearance.
  const std::vector<PlantRead>& plantReads() const { return plantReads_; }
  // Makes plant read `k` read Reference_Variable `variableId` (> 0), which variableIds() then lists with the read's
  // column, so that every check of what the expression reads through variables sees it.
  void bindPlantRead(size_t k, int variableId);
  // Every element-load function called (JOINT…, FX…), in order of appearance (repeats kept: each has its column).
  const std::vector<LoadRead>& loadReads() const { return loadReads_; }
  // ACCX..ACCM or WDTX..WDTM appear: the context must give accelerations.
  bool usesAcceleration() const { return usesAcceleration_; }
  // TIME appears (not folded away): the value may change with time at a fixed state.
  bool usesTime() const;
  // A velocity measure (VX..VM, WX..WM) appears.
  bool usesVelocity() const;
  const std::string& text() const { return text_; }

  // The most values a program holds on its stack at once; compile refuses expressions that need more.
  static constexpr int kStackCapacity = 64;

 private:
  // One step of the postfix program: push a constant, TIME, a measure or a variable, or replace the top
  // operandCount values with the operation's result.
  enum class Operation : std::uint8_t {
    Constant, Time, Measure, Variable, Contact, ContactPoint,
    Negate, Square, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Sqrt, Exp, Log, Log10, Abs, Aint, Anint,
    Add, Subtract, Multiply, Divide, Power, Atan2, Min, Max, Mod, Sign,
    Step, Step5, Shf, Impact, Bistop,
    Spline, ArrayValue, If, Poly, Cheby, Forcos, Forsin, Havsin, Dim,
    ElementLoad, MarkerLoad,
    Friction,      // FRICTION(id, comp, rm): markers are id, comp (1-18), rm (-1: the joint's J marker)
    Differential,  // DIF(id), DIF1(id): markers[0] the Control_Diff id, markers[1] 1 for the derivative
    SensorValue,   // SENVAL(id): markers[0] the Sensor_Evaluate id
  };
  struct Instruction {
    Operation operation = Operation::Constant;
    MarkerMeasure measure = MarkerMeasure::DX;  // Measure: which one
    std::uint8_t operandCount = 0;              // values it takes off the stack
    std::array<int, 4> markers{};               // Measure: ids of i, j, the axes marker, the derivative frame;
                                                // Variable: markers[0] is the Reference_Variable id (0 until
                                                // bound for PINVAL, POUVAL: markers[1] is then plant read k + 1);
                                                // Contact: the Force_Contact id, jflag (-1: the index form), comp
                                                // or index, rm; ContactPoint: markers[0] is the symbol;
                                                // Spline: the Reference_Spline id, SplineMethod, iord;
                                                // ArrayValue: the Reference_Array id, n
    double constant = 0;                        // Constant: the value it pushes
    // ElementLoad: markers are id, jflag, comp, rm and this the element's kind; MarkerLoad: markers are i, j, k, comp.
    LoadSource loadSource = LoadSource::None;
  };

  Expression() = default;
  // Runs the instructions [first, last), which leave one value. evaluate runs the whole program; the compiler runs
  // constants and the operation on them to fold them, so that a folded part gives exactly what evaluating it would.
  static double run(const Instruction* first, const Instruction* last, const ExpressionContext& context);
  static double measureValue(const Instruction& instruction, const ExpressionContext& context);
  static double contactValue(const Instruction& instruction, const ExpressionContext& context);
  // CONTACT(id, index, rm): the measure `index` (ContactIndex) of `loads`.
  static double contactIndexValue(const ContactLoads& loads, int index, int rm, const ExpressionContext& context);
  // comp of CONTACT, JOINT…, FX…: 1 |F|, 2-4 Fx Fy Fz, 5 |T|, 6-8 Tx Ty Tz, components in marker rm's axes (0: ground).
  static double loadComponent(const Vector3& force, const Vector3& torque, int component, int rm,
                              const ExpressionContext& context);
  // ElementLoad and MarkerLoad.
  static double loadValue(const Instruction& instruction, const ExpressionContext& context);
  // FRICTION: 1-3 force, 4-6 torque, 7-9 and 10-12 the translational and rotational coefficients, 13-15 and 16-18
  // the slip velocity and angular velocity, components along rm's axes.
  static double frictionValue(const Instruction& instruction, const ExpressionContext& context);

  std::string text_;
  std::vector<Instruction> program_;
  std::vector<int> markerIds_, markerColumns_;
  std::vector<int> variableIds_, variableColumns_;
  std::vector<int> contactIds_, contactColumns_;
  std::vector<int> differentialIds_, differentialColumns_;
  std::vector<int> differentialRateIds_;
  std::vector<int> sensorValueIds_, sensorValueColumns_;
  std::vector<DataReference> dataReferences_;
  std::vector<PlantRead> plantReads_;
  std::vector<LoadRead> loadReads_;
  bool usesAcceleration_ = false;

  friend class ExpressionCompiler;
};

}  // namespace lodestone
