// Builds the immutable Model from a ModelSpec: markers resolved to ground, then to their bodies' frames;
// body frames at the CG with inertia moved there; units, gravity and integrator settings.
#include "model_builder.h"

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

// The marker named by a body attribute, which must sit on that body.
const ReferenceMarkerSpec* bodyMarker(const MarkerResolver& markers, const BodyRigidSpec& body,
                                      const std::string& attribute, long markerId, Diagnostics& diagnostics) {
  const ReferenceMarkerSpec* marker = markers.spec(markerId);
  if (!marker) {
    diagnostics.error(body.loc, "attribute '" + attribute + "' refers to Reference_Marker id=" +
                                    std::to_string(markerId) + ", which is not defined");
    return nullptr;
  }
  if (marker->body_id != body.id) {
    diagnostics.error(body.loc, "attribute '" + attribute + "': Reference_Marker id=" + std::to_string(markerId) +
                                    " (" + marker->loc.position() + ") is on Body_Rigid id=" +
                                    std::to_string(marker->body_id) + ", not on this body");
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
    const ReferenceMarkerSpec* cg = bodyMarker(resolver, body, "cg_id", *body.cg_id, diagnostics);
    const ReferenceMarkerSpec* im = bodyMarker(resolver, body, "im_id", body.im_id.value_or(*body.cg_id), diagnostics);
    if (body.lprf_id) bodyMarker(resolver, body, "lprf_id", *body.lprf_id, diagnostics);
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

  for (const ReferenceMarkerSpec& markerSpec : spec.markers) {
    const std::optional<GroundFrame> frame = resolver.frame(markerSpec.id);
    if (!frame) continue;
    Marker marker;
    marker.id = markerSpec.id;
    marker.loc = markerSpec.loc;
    if (const auto moving = movingBodies.find(markerSpec.body_id); moving != movingBodies.end()) {
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
  checkStringSubroutines(spec.strings, diagnostics);
  // Contacts first: expressions everywhere, variables' too, may read their loads (CONTACT), whose ids are checked.
  model.contacts = buildContactModel(spec.contacts, spec.graphics, spec.paramCurves, spec.surfaces, model, diagnostics);
  // DIF and DIF1 may appear in any expression, variables' too: the equations are compiled first, checked after.
  const std::shared_ptr<DifferentialModel> differentials =
      buildDifferentialModel(spec.differentials, diagnostics);
  model.differentials = differentials;
  // SENVAL too, and a Sensor_Evaluate's expression may read VARVAL: compiled first, checked after.
  std::shared_ptr<SensorEvaluateModel> sensorEvaluates = buildSensorEvaluateModel(spec.sensorEvaluates, diagnostics);
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
