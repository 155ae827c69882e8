// Builds the immutable Model from a ModelSpec: markers resolved to ground, then to their bodies' frames;
// body frames at the CG with inertia moved there; units, gravity and integrator settings.
#include "model_builder.h"

#include <algorithm>
#include <map>
#include <set>

#include "elements/force_elements.h"
#include "elements/post_request.h"
#include "elements/reference_string.h"
#include "elements/reference_variable.h"
#include "elements/sensor_event.h"
#include "solver/core/text.h"

namespace lodestone {

namespace {

struct GroundFrame {
  Vector3 origin = Vector3::Zero();
  Matrix3 axes = Matrix3::Identity();
};

// Resolves every marker's frame in ground, following rm_id chains (id 0 is the ground frame).
class MarkerResolver {
 public:
  MarkerResolver(const std::vector<ReferenceMarkerSpec>& markers, Diagnostics& diagnostics) : diagnostics_(diagnostics) {
    for (const ReferenceMarkerSpec& marker : markers) byId_[marker.id] = &marker;
  }

  const ReferenceMarkerSpec* spec(long id) const {
    const auto found = byId_.find(id);
    return found == byId_.end() ? nullptr : found->second;
  }

  std::optional<GroundFrame> frame(long id) {
    if (id == 0) return GroundFrame{};
    if (const auto done = resolved_.find(id); done != resolved_.end()) return done->second;
    const auto found = byId_.find(id);
    if (found == byId_.end() || failed_.count(id)) return std::nullopt;
    const ReferenceMarkerSpec& spec = *found->second;
    if (!inProgress_.insert(id).second) {
      diagnostics_.error(spec.loc, "rm_id chain loops back to this marker; one marker of the chain must be given "
                                   "relative to ground");
      failed_.insert(id);
      return std::nullopt;
    }
    std::optional<GroundFrame> result;
    const std::optional<Matrix3> local = markerOrientation(spec, diagnostics_);
    const std::optional<GroundFrame> reference = frame(spec.rm_id.value_or(0));
    if (local && reference) {
      const Vector3 position(spec.pos_x, spec.pos_y, spec.pos_z);
      result = GroundFrame{reference->origin + reference->axes * position, reference->axes * *local};
      resolved_[id] = *result;
    } else {
      failed_.insert(id);
    }
    inProgress_.erase(id);
    return result;
  }

 private:
  Diagnostics& diagnostics_;
  std::map<long, const ReferenceMarkerSpec*> byId_;
  std::map<long, GroundFrame> resolved_;
  std::set<long> inProgress_;
  std::set<long> failed_;
};

// The marker named by a body attribute, which must sit on that body: a Body_Rigid's markers say body_type
// RigidBody, a Body_Point's PointBody (the two may share ids).
const ReferenceMarkerSpec* bodyMarker(const MarkerResolver& markers, const SourceLoc& body, long bodyId,
                                      bool pointBody, const std::string& attribute, long markerId,
                                      Diagnostics& diagnostics) {
  const ReferenceMarkerSpec* marker = markers.spec(markerId);
  if (!marker) {
    diagnostics.error(body, "attribute '" + attribute + "' refers to Reference_Marker id=" +
                                std::to_string(markerId) + ", which is not defined");
    return nullptr;
  }
  const bool markerOnPointBody = namesPointBody(marker->body_type);
  if (marker->body_id != bodyId || markerOnPointBody != pointBody) {
    const std::string markerBody = markerOnPointBody ? "Body_Point" : "Body_Rigid";
    const std::string hint =
        pointBody && !markerOnPointBody ? " (a marker on a Body_Point says body_type=\"PointBody\")" : "";
    diagnostics.error(body, "attribute '" + attribute + "': Reference_Marker id=" + std::to_string(markerId) + " (" +
                                marker->loc.position() + ") is on " + markerBody + " id=" +
                                std::to_string(marker->body_id) + ", not on this body" + hint);
    return nullptr;
  }
  return marker;
}

// A real body's principal moments are positive and each is at most the sum of the other two.
void checkInertiaIsPhysical(const Matrix3& inertia, const SourceLoc& loc, Diagnostics& diagnostics) {
  const Eigen::SelfAdjointEigenSolver<Matrix3> solver(inertia);
  const Vector3 moments = solver.eigenvalues();
  const double largest = moments.cwiseAbs().maxCoeff();
  const std::string listed = formatSignificant(moments(0), 6) + ", " + formatSignificant(moments(1), 6) + ", " +
                             formatSignificant(moments(2), 6);
  if (!(moments(0) > 1e-12 * largest) || largest == 0) {
    diagnostics.error(loc, "the inertia about the centre of mass must be positive definite; its principal moments "
                           "are " + listed);
    return;
  }
  const double tolerance = 1e-6 * largest;  // decks round to 8 or so digits
  if (moments(2) > moments(0) + moments(1) + tolerance) {
    diagnostics.error(loc, "the inertia about the centre of mass is not that of a real body: its principal moments " +
                               listed + " break the triangle inequality (each must be at most the sum of the others)");
  }
}

// The elements JOINT, SFORCE… name in the expressions that may read them (force elements and contact laws refuse
// them): variables, sensors, requests.
void checkLoadReads(const ModelSpec& spec, const Model& model, Diagnostics& diagnostics) {
  if (model.variables) {
    for (const ReferenceVariable& variable : model.variables->variables) {
      checkLoadReferences(variable.expression, "expr", variable.loc, spec, diagnostics);
    }
  }
  if (model.sensors) {
    for (const SensorEvent& sensor : model.sensors->sensors) {
      checkLoadReferences(sensor.expression, "expr", sensor.loc, spec, diagnostics);
    }
  }
  if (model.requests) {
    for (const Request& request : model.requests->requests) {
      for (size_t k = 0; k < request.expressions.size(); ++k) {
        if (!request.expressions[k]) continue;
        checkLoadReferences(*request.expressions[k], "expr" + std::to_string(k + 1), request.loc, spec, diagnostics);
      }
    }
  }
}

// Whether an equation of this kind holds a rotation (an angle, or the directions of the markers' axes) rather than
// where a point is.
bool constrainsRotation(JointEquationKind kind) {
  switch (kind) {
    case JointEquationKind::Point:
    case JointEquationKind::OnJointAxisLine:
    case JointEquationKind::JointTranslation:
      return false;
    default:
      return true;
  }
}

// A point body's orientation never changes (its turning rows hold ω' = 0), so a joint, motion, coupler or gear that
// would hold or drive its rotation relative to another body has nothing to act on: refused at the element's line.
// Equations on where a marker of it is (SPHERICAL, ATPOINT, INLINE, INPLANE, translations) act on its position alone.
void refuseRotationsOfPointBodies(const ConstraintModel& constraints, const Model& model, Diagnostics& diagnostics) {
  const auto pointBodyOf = [&](int body) -> const RigidBody* {
    return body >= 0 && model.bodies[static_cast<size_t>(body)].point ? &model.bodies[static_cast<size_t>(body)]
                                                                       : nullptr;
  };
  for (const Joint& joint : constraints.joints) {
    std::vector<std::pair<const JointEquation*, std::pair<int, int>>> measured;
    for (const JointEquation& equation : joint.equations) measured.push_back({&equation, {joint.bodyI, joint.bodyJ}});
    for (const CoupledCoordinate& coordinate : joint.coupled) {
      measured.push_back({&coordinate.measure, {coordinate.bodyI, coordinate.bodyJ}});
    }
    for (const auto& [equation, bodies] : measured) {
      if (equation->kind == JointEquationKind::Coupler || !constrainsRotation(equation->kind)) continue;
      const RigidBody* point = pointBodyOf(bodies.first) ? pointBodyOf(bodies.first) : pointBodyOf(bodies.second);
      if (!point) continue;
      const std::string what = joint.isMotion() ? "prescribes" : "constrains";
      const bool namesType = !joint.isMotion() && !joint.isCoupler();
      diagnostics.error(joint.loc, (namesType ? "type " + joint.type + " " : std::string()) + what + " a rotation (" +
                                       equation->name + ") of Body_Point id=" + std::to_string(point->id) +
                                       ", whose orientation never changes: a point mass has no rotation to hold or "
                                       "drive; SPHERICAL and the primitives ATPOINT, INLINE and INPLANE hold only "
                                       "where its marker is");
      break;
    }
  }
}

}  // namespace

std::optional<Model> buildModel(const ModelSpec& spec, Diagnostics& diagnostics) {
  const int errorsBefore = diagnostics.errorCount();
  Model model;
  model.deckPath = spec.deckPath;
  model.units = unitSystemOf(spec.units);
  model.integrator = integratorSettingsOf(spec.transient);
  model.statics = staticSettingsOf(spec.statics);
  if (spec.gravity) model.gravity = Vector3(spec.gravity->grav_x, spec.gravity->grav_y, spec.gravity->grav_z);
  model.elementCounts = spec.elementCounts;

  MarkerResolver resolver(spec.markers, diagnostics);
  struct BodyFrame {
    int index;          // into model.bodies
    GroundFrame frame;  // CG and body axes in ground
  };
  std::map<long, BodyFrame> movingBodies;
  for (const BodyRigidSpec& body : spec.bodies) {
    if (body.isground) {
      model.groundBodyIds.push_back(body.id);
      continue;
    }
    if (!body.mass || !body.cg_id) continue;  // reported by checkBodyRigid
    const auto marker = [&](const std::string& attribute, long markerId) {
      return bodyMarker(resolver, body.loc, body.id, false, attribute, markerId, diagnostics);
    };
    const ReferenceMarkerSpec* cg = marker("cg_id", *body.cg_id);
    const ReferenceMarkerSpec* im = marker("im_id", body.im_id.value_or(*body.cg_id));
    if (body.lprf_id) marker("lprf_id", *body.lprf_id);
    if (!cg || !im) continue;
    const std::optional<GroundFrame> cgFrame = resolver.frame(cg->id);
    const std::optional<GroundFrame> imFrame = resolver.frame(im->id);
    if (!cgFrame || !imFrame) continue;

    RigidBody rigid;
    rigid.id = body.id;
    rigid.loc = body.loc;
    rigid.label = body.label;
    rigid.mass = *body.mass;
    rigid.inertia = inertiaAboutCg(inertiaTensor(body), imFrame->axes, imFrame->origin, rigid.mass, cgFrame->origin,
                                   cgFrame->axes);
    checkInertiaIsPhysical(rigid.inertia, body.loc, diagnostics);
    rigid.position = cgFrame->origin;
    rigid.eulerParameters = eulerParametersFromRotation(cgFrame->axes);
    rigid.velocity = Vector3(body.v_ic_x, body.v_ic_y, body.v_ic_z);
    rigid.angularVelocity = Vector3(body.w_ic_x, body.w_ic_y, body.w_ic_z);
    movingBodies[body.id] = BodyFrame{static_cast<int>(model.bodies.size()), *cgFrame};
    model.bodies.push_back(std::move(rigid));
  }

  std::map<long, BodyFrame> pointBodies;
  for (const BodyPointSpec& body : spec.pointBodies) {
    // Results, requests and messages name a body by its id alone; a Body_Rigid with the same id could not be told
    // apart from this one there.
    const auto sameId = std::find_if(spec.bodies.begin(), spec.bodies.end(),
                                     [&](const BodyRigidSpec& rigid) { return rigid.id == body.id; });
    if (sameId != spec.bodies.end()) {
      diagnostics.error(body.loc, "Body_Rigid id=" + std::to_string(body.id) + " (" + sameId->loc.position() +
                                      ") has the same id; results and requests name bodies by id alone, so give the "
                                      "point body an id no Body_Rigid has");
      continue;
    }
    if (!body.mass || *body.mass <= 0 || !body.cg_id) continue;  // reported by the reader
    const auto marker = [&](const std::string& attribute, long markerId) {
      return bodyMarker(resolver, body.loc, body.id, true, attribute, markerId, diagnostics);
    };
    const ReferenceMarkerSpec* cg = marker("cg_id", *body.cg_id);
    if (body.lprf_id) marker("lprf_id", *body.lprf_id);
    if (!cg) continue;
    const std::optional<GroundFrame> cgFrame = resolver.frame(cg->id);
    if (!cgFrame) continue;

    RigidBody point;
    point.id = body.id;
    point.loc = body.loc;
    point.label = body.label;
    point.point = true;
    point.mass = *body.mass;
    point.position = cgFrame->origin;  // its axes are ground's, whatever the cg marker's orientation
    point.velocity = Vector3(body.v_ic_x, body.v_ic_y, body.v_ic_z);
    const GroundFrame groundAxesAtCg{cgFrame->origin, Matrix3::Identity()};
    pointBodies[body.id] = BodyFrame{static_cast<int>(model.bodies.size()), groundAxesAtCg};
    model.bodies.push_back(std::move(point));
  }

  for (const ReferenceMarkerSpec& markerSpec : spec.markers) {
    const std::optional<GroundFrame> frame = resolver.frame(markerSpec.id);
    if (!frame) continue;
    Marker marker;
    marker.id = markerSpec.id;
    marker.loc = markerSpec.loc;
    const std::map<long, BodyFrame>& bodiesOfType = namesPointBody(markerSpec.body_type) ? pointBodies : movingBodies;
    if (const auto moving = bodiesOfType.find(markerSpec.body_id); moving != bodiesOfType.end()) {
      const GroundFrame& body = moving->second.frame;
      marker.body = moving->second.index;
      marker.position = body.axes.transpose() * (frame->origin - body.origin);
      marker.orientation = body.axes.transpose() * frame->axes;
    } else {
      marker.body = -1;  // on ground (or on a body that failed to build, already reported)
      marker.position = frame->origin;
      marker.orientation = frame->axes;
    }
    model.markers.push_back(marker);
  }

  if (diagnostics.errorCount() != errorsBefore) return std::nullopt;
  model.data = buildDataModel(spec.splines, spec.arrays, spec.strings);  // every expression may read splines, arrays
  model.plants = buildPlantModel(spec.plantInputs, spec.plantOutputs);    // and variables through the plant ports
  checkStringSubroutines(spec.strings, diagnostics);
  // Contacts first: expressions everywhere, variables' too, may read their loads (CONTACT), whose ids are checked.
  model.contacts = buildContactModel(spec.contacts, spec.graphics, spec.paramCurves, spec.surfaces, model, diagnostics);
  // DIF and DIF1 may appear in any expression, variables' too: the equations are compiled first, checked after.
  const std::shared_ptr<DifferentialModel> differentials =
      buildDifferentialModel(spec.differentials, model, diagnostics);
  model.differentials = differentials;
  // SENVAL too, and a Sensor_Evaluate's expression may read VARVAL: compiled first, checked after.
  std::shared_ptr<SensorEvaluateModel> sensorEvaluates =
      buildSensorEvaluateModel(spec.sensorEvaluates, model, diagnostics);
  model.sensorEvaluates = sensorEvaluates;
  // ARYVAL may read their X and Y arrays in any expression: the systems come before the expressions are checked.
  const std::shared_ptr<ControlModel> controls =
      buildControlModel(spec.stateEquations, spec.sisos, spec.matrices, spec.arrays, diagnostics);
  model.controls = controls;
  model.variables = buildVariableModel(spec.variables, model, diagnostics);  // sensors and forces read them
  setUpDifferentialSubroutines(*differentials, spec.differentials, model, diagnostics);  // DIFSUB reads variables
  checkDifferentialReferences(*model.differentials, model, diagnostics);
  checkSensorEvaluateReferences(*sensorEvaluates, spec.sensorEvaluates, model, diagnostics);  // SEVSUB reads variables
  setUpStateEquationSubroutines(*controls, spec.stateEquations, model, diagnostics);  // GSESUB reads variables
  resolveControlInputs(*controls, model, diagnostics);  // their inputs' variable indices
  if (model.contacts) checkContactLawReadings(*model.contacts, model, diagnostics);  // contact laws read them too
  model.sensors = buildSensorModel(spec.sensors, model, diagnostics);
  {
    std::shared_ptr<ConstraintModel> constraints =
        buildConstraintModel(spec.joints, spec.primitives, spec.motions, model, diagnostics);
    appendCouplers(spec.couplers, spec.joints, model, *constraints, diagnostics);
    appendGears(spec.gears, spec.joints, model, *constraints, diagnostics);
    appendMarkerMotions(spec.markerMotions, model, *constraints, diagnostics);
    refuseRotationsOfPointBodies(*constraints, model, diagnostics);
    model.constraints = constraints;
  }
  model.jointFrictions = buildJointFrictionModel(spec.jointFrictions, model, diagnostics);  // on the joints
  model.forces = buildForceModel(spec, model, diagnostics);
  model.requests = buildRequestModel(spec.requests, model, diagnostics);  // reads the joints and forces
  checkLoadReads(spec, model, diagnostics);
  if (diagnostics.errorCount() != errorsBefore) return std::nullopt;
  return model;
}

}  // namespace lodestone
