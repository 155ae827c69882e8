// Post_Request: an output channel of eight values per output time (requests.csv), as MotionView writes them —
// the motion of marker I relative to marker J or the force between them, resolved in the axes of ref_marker_id,
// or up to eight expressions. The deck element, its checks, the requests of a model, and their evaluation from the
// bodies' kinematics and the loads between markers.
//
// The eight values, F1..F8 as Adams and MotionSolve number them (with d = p_I − p_J, time derivatives taken in
// ground, vectors resolved in RM's axes, RM = ref_marker_id, ground when left out or 0; J ground when left out or 0):
//   MARKER_DISPLACEMENT   |d|, d_x, d_y, d_z, 0, ψ, θ, φ  — ψ θ φ: body 3-1-3 angles of I's axes relative to J's
//                         (PSI, THETA, PHI), radians; they do not depend on RM. F5 is unused, as in Adams.
//   MARKER_VELOCITY       |ḋ|, ḋ, |ω_I − ω_J|, ω_I − ω_J
//   MARKER_ACCELERATION   |d̈|, d̈, |α_I − α_J|, α_I − α_J
//   MARKER_FORCE          |F|, F, |T|, T — the force on I and the torque about I's origin from every joint, motion
//                         and force element acting between markers I and J (in either order; with J left out, every
//                         one acting at I), as Adams' FX..TM sum them. Contacts act between graphics, not markers,
//                         and are not included.
//   EXPRESSION            expr1..expr8; a component that is "NULL" or left out is 0, as MotionSolve writes it.
//   USERSUB               the eight numbers REQSUB returns (C or Python, plugins/element_subroutine.h).
// ELEMENTAL_FORCE requests are not available yet: a warning names each, and it is not written.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "elements/body_rigid.h"
#include "elements/expression_context.h"
#include "plugins/element_subroutine.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct PostRequestSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  long i_marker_id = 0;
  long j_marker_id = 0;    // 0: ground
  long ref_marker_id = 0;  // 0: ground
  std::array<std::optional<std::string>, 8> expressions;  // expr1..expr8
  SubroutineAttributeValues subroutine;  // USERSUB: REQSUB
  // Read only to be named in the warning that this type is not available yet.
  std::optional<std::string> elem_type, jflag;
};

const ElementSchema<PostRequestSpec>& postRequestSchema();
// ELEMENTAL_FORCE is not available yet (a warning); MARKER_* need i_marker_id; each expression compiles; USERSUB names
// its REQSUB.
void checkPostRequest(const PostRequestSpec& spec, Diagnostics& diagnostics);

// ---- the requests of a model ------------------------------------------------------------------------------------

enum class RequestType { Displacement, Velocity, Acceleration, Force, Expression, UserSubroutine };

// "MARKER_DISPLACEMENT"…, as the deck and requests.csv write the type.
const char* requestTypeName(RequestType type);

struct Request {
  long id = 0;
  SourceLoc loc;
  RequestType type = RequestType::Expression;
  long markerI = 0, markerJ = 0, refMarker = 0;  // Reference_Marker ids; 0 is ground
  std::array<std::optional<Expression>, 8> expressions;  // EXPRESSION: nothing is 0
  std::optional<ElementSubroutine> subroutine;            // USERSUB: REQSUB, set up
};

struct RequestModel {
  std::vector<Request> requests;  // those that can be written, in deck order
  bool readsContacts = false;     // some expression reads a contact's loads (CONTACT)
  bool readsLoads = false;        // some expression reads an element's loads (JOINT…, FX…), itself or via a variable
};

// The deck's requests on a model whose bodies, markers, variables, joints and force elements are built; their
// expressions checked. A MARKER_FORCE between markers no joint, motion or force element joins is warned about (its
// force would be zero).
std::shared_ptr<const RequestModel> buildRequestModel(const std::vector<PostRequestSpec>& specs, const Model& model,
                                                      Diagnostics& diagnostics);

// One request at one output time (requests.csv's row).
struct RequestSample {
  long id = 0;
  RequestType type = RequestType::Expression;
  std::array<double, 8> values{};  // F1..F8
};

// Evaluates the requests at given body kinematics (accelerations included) and loads between markers. `model` must
// outlive the evaluator.
class RequestEvaluator {
 public:
  // Where DIF and DIF1 in its expressions read the Control_Diff states (ModelExpressionContext).
  void setDifferentialStates(const DifferentialStates* states) { context_.setDifferentialStates(states); }
  // Where FRICTION reads the joint frictions' measures, kept with the loads (null: nowhere, NaN).
  void setFrictionMeasures(const std::vector<FrictionMeasures>* measures) { context_.setFrictionMeasures(measures); }
  // Where SENVAL in its expressions reads the Sensor_Evaluate values (ModelExpressionContext).
  void setSensorEvaluateValues(const SensorEvaluateValues* values) { context_.setSensorEvaluateValues(values); }
  explicit RequestEvaluator(const Model& model);

  bool empty() const { return !requests_ || requests_->requests.empty(); }
  // Whether some request needs the joints' and force elements' loads at their markers (MARKER_FORCE, or an expression
  // that reads JOINT…, FX…).
  bool needsLoads() const;
  // Whether some request reads a contact's loads (CONTACT): `contacts` must then hold them at this state.
  bool readsContacts() const { return requests_ && requests_->readsContacts; }
  void evaluate(double time, std::span<const BodyKinematics> bodies, const std::vector<MarkerPairLoad>& loads,
                std::vector<RequestSample>& samples, const ContactMeasures* contacts = nullptr);

 private:
  const Model& model_;
  ModelExpressionContext context_;
  const RequestModel* requests_ = nullptr;
};

}  // namespace lodestone
