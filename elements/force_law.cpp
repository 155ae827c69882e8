// Force elements: their connection to bodies and their expressions.
#include "force_law.h"

#include <algorithm>

#include "elements/expression_context.h"
#include "solver/core/excerpt.h"

namespace lodestone {

RelativeDeflection relativeDeflection(const MarkerMotion& i, const MarkerMotion& j) {
  RelativeDeflection deflection;
  deflection.axes = j.rotation;
  deflection.point = i.position;
  const Vector3 separation = i.position - j.position;
  const MarkerMotion ground;
  deflection.displacement.head<3>() = j.rotation.transpose() * separation;
  deflection.displacement.tail<3>() = Vector3(markerMeasure(MarkerMeasure::AX, i, j, ground),
                                              markerMeasure(MarkerMeasure::AY, i, j, ground),
                                              markerMeasure(MarkerMeasure::AZ, i, j, ground));
  deflection.rate.head<3>() = j.rotation.transpose() * (i.velocity - j.velocity - j.angularVelocity.cross(separation));
  deflection.rate.tail<3>() = j.rotation.transpose() * (i.angularVelocity - j.angularVelocity);
  return deflection;
}

ElementAction deflectionLoadAction(const RelativeDeflection& deflection, const Vector6& load) {
  ElementAction action;
  action.force = deflection.axes * load.head<3>();
  action.torque = deflection.axes * load.tail<3>();
  action.point = deflection.point;
  action.reactionForce = -action.force;
  action.reactionTorque = -action.torque;
  action.reactionPoint = deflection.point;
  return action;
}

int bodyOfMarker(const Model& model, long id, ForceConnection& connection) {
  const Marker* marker = id == 0 ? nullptr : model.marker(id);
  const int body = marker ? marker->body : -1;
  std::vector<int>& read = connection.bodiesRead;
  if (body >= 0 && std::find(read.begin(), read.end(), body) == read.end()) read.push_back(body);
  return body;
}

bool connectMarkerPair(long iMarker, long jMarker, const SourceLoc& loc, const Model& model,
                       ForceConnection& connection, Diagnostics& diagnostics, const std::string& between) {
  connection.markerI = iMarker;
  connection.markerJ = jMarker;
  connection.bodyI = bodyOfMarker(model, iMarker, connection);
  connection.bodyJ = bodyOfMarker(model, jMarker, connection);
  if (connection.bodyI != connection.bodyJ) return true;
  diagnostics.error(loc, "i_marker_id=" + std::to_string(iMarker) + " and j_marker_id=" + std::to_string(jMarker) +
                             " are both on " + model.bodyName(connection.bodyI) + "; " + between);
  return false;
}

std::optional<Expression> buildForceExpression(const std::string& attribute, const std::string& text,
                                               const SourceLoc& loc, const Model& model, ForceConnection& connection,
                                               Diagnostics& diagnostics) {
  std::optional<Expression> expression = compileModelAttribute(attribute, text, loc, model, diagnostics);
  if (!expression || !checkExpressionReferences(*expression, attribute, loc, model, diagnostics)) return std::nullopt;
  if (readsAcceleration(*expression, model.variables.get())) {
    diagnostics.error(loc, attribute + "=\"" + excerpt(text) +
                               "\" reads accelerations (ACCX, ACCY, ACCZ or ACCM, itself or through a "
                               "Reference_Variable); a force that depends on the accelerations it causes is not "
                               "available");
    return std::nullopt;
  }
  if (!refuseLoadReads(*expression, attribute, loc, model.variables.get(), diagnostics)) return std::nullopt;
  connection.readsContacts = connection.readsContacts || readsContacts(*expression, model.variables.get());
  addBodiesRead(*expression, model, connection.bodiesRead);
  return expression;
}

}  // namespace lodestone
