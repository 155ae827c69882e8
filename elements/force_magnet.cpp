// Force_Magnet: attributes, checks, the pairs of magnets, and the loads of a pair at a state.
#include "force_magnet.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>

#include "collision/mesh_geometry.h"
#include "collision/narrow_phase.h"
#include "elements/expression_context.h"
#include "plugins/builtin/dipole.h"

namespace lodestone {

using S = ForceMagnetSpec;

namespace {

// A magnet reaches 2 T or so: M ≈ 1.6e6 A/m. A "magnetisation" given as a polarisation in tesla would be 1e6 times
// too weak, so the unit is said where the attribute is described.
const char* const kPerLength = "current per length (A/m in a metre deck)";

bool hasMagnetisation(const S& spec) {
  return spec.magnetization_x || spec.magnetization_y || spec.magnetization_z;
}
bool hasMoment(const S& spec) { return spec.moment_x || spec.moment_y || spec.moment_z; }
bool isSoft(const S& spec) { return spec.susceptibility.has_value(); }

void addBodiesRead(const ForceConnection& from, ForceConnection& to) {
  for (const int body : from.bodiesRead) {
    if (std::find(to.bodiesRead.begin(), to.bodiesRead.end(), body) == to.bodiesRead.end()) {
      to.bodiesRead.push_back(body);
    }
  }
}

}  // namespace

const ElementSchema<ForceMagnetSpec>& forceMagnetSchema() {
  static const ElementSchema<S> schema{
      .element = "Force_Magnet",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("graphic_id", &S::graphic_id, "Post_Graphic").required(),
          attr::real("magnetization_x", &S::magnetization_x).hint(kPerLength),
          attr::real("magnetization_y", &S::magnetization_y).hint(kPerLength),
          attr::real("magnetization_z", &S::magnetization_z).hint(kPerLength),
          attr::real("moment_x", &S::moment_x).hint("current × area (A·m² in a metre deck)"),
          attr::real("moment_y", &S::moment_y).hint("current × area (A·m² in a metre deck)"),
          attr::real("moment_z", &S::moment_z).hint("current × area (A·m² in a metre deck)"),
          attr::real("susceptibility", &S::susceptibility)
              .above(-1)
              .hint("χ, dimensionless (SI): a soft magnet; ≠ 0, < 0 for a diamagnet"),
          attr::text("strength_expression", &S::strength_expression),
          attr::integer("dipoles_per_axis", &S::dipoles_per_axis).atLeast(0).atMost(20).byDefault(0),
          attr::real("accuracy", &S::accuracy).above(0).below(1).byDefault(1e-4),
      }};
  return schema;
}

void checkForceMagnet(const ForceMagnetSpec& spec, Diagnostics& diagnostics) {
  if (isSoft(spec)) {
    if (hasMagnetisation(spec) || hasMoment(spec)) {
      diagnostics.error(spec.loc, "a soft magnet (susceptibility) has its magnetisation induced: give "
                                  "susceptibility or magnetization_x/y/z or moment_x/y/z, only one of them");
    }
    if (*spec.susceptibility == 0) {
      diagnostics.error(spec.loc, "susceptibility 0 is no magnet: give χ ≠ 0 (> −1), or leave the element out");
    }
    if (spec.strength_expression) {
      diagnostics.error(spec.loc, "strength_expression is a permanent magnet's factor on M; a soft magnet "
                                  "(susceptibility) has none: its moment follows the field of the other magnets");
    }
    return;
  }
  if (hasMagnetisation(spec) && hasMoment(spec)) {
    diagnostics.error(spec.loc, "give the magnet's magnetization_x/y/z or its moment_x/y/z, not both");
  } else if (!hasMagnetisation(spec) && !hasMoment(spec)) {
    diagnostics.error(spec.loc, "a magnet needs its magnetization_x/y/z (" + std::string(kPerLength) +
                                    ") or its whole moment moment_x/y/z, or, a soft one, its susceptibility");
  }
  if (spec.strength_expression) {
    compileAttribute("strength_expression", *spec.strength_expression, spec.loc, diagnostics);
  }
}

namespace {

using Kind = MagnetShape::Kind;

std::optional<MagnetShape> magnetShapeOf(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return MagnetShape{Kind::kSphere, shape.radius, 0, Vector3::Zero()};
    case ShapeType::Box: return MagnetShape{Kind::kCuboid, 0, 0, shape.halfExtents};
    case ShapeType::Cylinder: return MagnetShape{Kind::kCylinder, shape.radius, shape.halfLength, Vector3::Zero()};
    case ShapeType::Ellipsoid: return MagnetShape{Kind::kEllipsoid, 0, 0, shape.semiAxes};
    case ShapeType::Frustum: return frustumMagnetShape(shape.bottomRadius, shape.topRadius, shape.length);
    default: return std::nullopt;
  }
}

Vector3 components(const std::optional<double>& x, const std::optional<double>& y, const std::optional<double>& z) {
  return Vector3(x.value_or(0), y.value_or(0), z.value_or(0));
}

// A TriaMesh as a magnet: a closed, outward-wound mesh (its nodes in its marker's axes, the magnet's own), and the
// mesh as collision geometry for magnets in contact.
std::optional<PlacedShape> meshMagnetOf(const PostGraphicSpec& graphic, const S& spec, const std::string& graphicName,
                                        Diagnostics& diagnostics) {
  const std::string problem = polyhedronMeshProblem(Polyhedron{graphic.mesh.vertices, graphic.mesh.triangles, {}});
  if (!problem.empty()) {
    diagnostics.error(spec.loc, graphicName + " cannot be a magnet: " + problem);
    return std::nullopt;
  }
  if (isSoft(spec) && spec.dipoles_per_axis == 0) {
    diagnostics.error(spec.loc, graphicName + " is a TriaMesh: a soft mesh is sampled by dipoles, which also give "
                                              "its demagnetising factors; give dipoles_per_axis > 0 (6 or more)");
    return std::nullopt;
  }
  PlacedShape placed;
  placed.shape = Shape::mesh(
      std::make_shared<MeshGeometry>(graphic.mesh, graphic.crease_angle * std::numbers::pi / 180));
  return placed;
}

struct BuiltMagnet {
  MagnetPair::Side side;
  std::optional<SoftMagnet> soft;  // a soft magnet's model; none for a permanent one
  int body = -1;
  double accuracy = 0;
  ForceConnection reads;  // the body it is on and those its strength expression reads
  // Whether its strength expression reads a moving body's state (a marker measure, directly or through a variable):
  // only then may the magnet's loads depend on velocities. A strength of TIME alone does not.
  bool strengthReadsBodies = false;
};

std::optional<BuiltMagnet> buildMagnet(const S& spec, const std::map<long, const PostGraphicSpec*>& graphics,
                                       const Model& model, Diagnostics& diagnostics) {
  const auto found = graphics.find(spec.graphic_id);
  if (found == graphics.end()) return std::nullopt;  // a dangling reference, reported by the reader
  const PostGraphicSpec& graphic = *found->second;
  const std::string graphicName = "Post_Graphic id=" + std::to_string(graphic.id) + " (" + graphic.loc.position() + ")";
  const Marker* marker = model.marker(graphic.markerId());
  std::optional<PlacedShape> placed = primitiveShapeOf(graphic);
  std::optional<MagnetShape> shape = placed ? magnetShapeOf(placed->shape) : std::nullopt;
  if (graphic.type == "TriaMesh") {
    placed = meshMagnetOf(graphic, spec, graphicName, diagnostics);
    if (!placed) return std::nullopt;
    shape = MagnetShape{Kind::kPolyhedron, 0, 0, Vector3::Zero(),
                        std::make_shared<const Polyhedron>(
                            Polyhedron{graphic.mesh.vertices, graphic.mesh.triangles, Vector3::Zero()})};
  }
  if (!graphic.is_material_inside) {
    diagnostics.error(spec.loc, graphicName + " is hollow (is_material_inside=\"FALSE\"); a magnet is a solid");
    return std::nullopt;
  }
  if (!shape) {
    diagnostics.error(spec.loc, graphicName + " is a " + graphic.type +
                                    "; a magnet is a Sphere, a Box, a Cylinder, a Frustum, an Ellipsoid or a "
                                    "TriaMesh");
    return std::nullopt;
  }
  if (!marker) return std::nullopt;  // the marker's own error says why

  BuiltMagnet built;
  built.side.loc = spec.loc;
  built.accuracy = spec.accuracy;
  built.side.magnet.shape = *shape;
  built.side.shape = placed->shape;
  built.side.boundingRadius = boundingRadius(*shape);
  built.side.volume = volume(*shape);
  built.side.magnet.dipolesPerAxis = spec.dipoles_per_axis;
  built.side.markerId = graphic.markerId();
  built.side.inMarker = placed->inMarker;
  if (shape->kind == Kind::kFrustum) {
    // The magnet's centre is the frustum's centroid, the shape's origin the centre of its bottom.
    built.side.shapeOrigin = Vector3(0, 0, shape->bottomZ);
    built.side.inMarker.position -= placed->inMarker.rotation * built.side.shapeOrigin;
  }
  built.body = bodyOfMarker(model, graphic.markerId(), built.reads);
  if (isSoft(spec)) {
    built.soft = softMagnet(*shape, *spec.susceptibility, spec.dipoles_per_axis);
    return built;
  }
  const Vector3 inMarkerAxes =
      hasMoment(spec) ? Vector3(components(spec.moment_x, spec.moment_y, spec.moment_z) / volume(*shape))
                      : components(spec.magnetization_x, spec.magnetization_y, spec.magnetization_z);
  const Vector3 magnetisation = placed->inMarker.rotation.transpose() * inMarkerAxes;
  built.side.magnet.magnetisation = magnetisation;
  if (spec.strength_expression) {
    ForceConnection strengthReads;
    built.side.strength = buildForceExpression("strength_expression", *spec.strength_expression, spec.loc, model,
                                               strengthReads, diagnostics);
    if (!built.side.strength) return std::nullopt;
    built.strengthReadsBodies = !strengthReads.bodiesRead.empty();
    addBodiesRead(strengthReads, built.reads);
  }
  return built;
}

}  // namespace

namespace {

// The tolerance of an iterative induction solve: well below the integrator's, so that the loads it integrates are
// smooth to its tolerance, and no looser than 1e-8 nor tighter than round-off allows for.
double inductionTolerance(const Model& model) { return std::clamp(1e-3 * model.integrator.integrTol, 1e-12, 1e-8); }

BuiltInducedMagnets buildInducedMagnets(const std::vector<BuiltMagnet>& built, const Model& model) {
  BuiltInducedMagnets induced;
  InducedMagnets& law = induced.law;
  law.settings.relativeTolerance = inductionTolerance(model);
  law.permeabilityScale = vacuumPermeability(model.units) / kVacuumPermeability;
  ForceConnection& connection = induced.connection;
  connection.readsVelocities = false;
  bool first = true;
  for (const BuiltMagnet& magnet : built) {
    if (magnet.soft) {
      law.soft.push_back(InducedMagnets::Soft{magnet.side, *magnet.soft, magnet.body});
      if (first) induced.loc = magnet.side.loc;
      first = false;
    } else {
      law.permanent.push_back(InducedMagnets::Permanent{magnet.side, magnet.body});
      if (magnet.strengthReadsBodies) connection.readsVelocities = true;  // an expression may read velocities
    }
    addBodiesRead(magnet.reads, connection);
    if (magnet.body >= 0 && std::find(connection.bodiesLoaded.begin(), connection.bodiesLoaded.end(), magnet.body) ==
                                connection.bodiesLoaded.end()) {
      connection.bodiesLoaded.push_back(magnet.body);
    }
  }
  return induced;
}

}  // namespace

BuiltMagnets buildMagnets(const std::vector<ForceMagnetSpec>& magnets, const std::vector<PostGraphicSpec>& graphics,
                          const Model& model, Diagnostics& diagnostics) {
  std::map<long, const PostGraphicSpec*> graphicsById;
  for (const PostGraphicSpec& graphic : graphics) graphicsById[graphic.id] = &graphic;
  std::vector<BuiltMagnet> built;
  for (const S& spec : magnets) {
    if (std::optional<BuiltMagnet> magnet = buildMagnet(spec, graphicsById, model, diagnostics)) {
      built.push_back(std::move(*magnet));
    }
  }
  BuiltMagnets result;
  const double permeabilityScale = vacuumPermeability(model.units) / kVacuumPermeability;
  for (size_t a = 0; a < built.size(); ++a) {
    if (built[a].soft) continue;
    for (size_t b = a + 1; b < built.size(); ++b) {
      // Magnets on one body pull on each other as the body's own stresses do: no load on the body.
      if (built[b].soft || built[a].body == built[b].body) continue;
      BuiltMagnetPair pair;
      pair.pair.first = built[a].side;
      pair.pair.second = built[b].side;
      pair.pair.accuracy = std::min(built[a].accuracy, built[b].accuracy);
      pair.pair.permeabilityScale = permeabilityScale;
      ForceConnection& connection = pair.connection;
      // Magnets feel only where they are; an expression may read velocities.
      connection.readsVelocities = built[a].strengthReadsBodies || built[b].strengthReadsBodies;
      connection.bodyI = built[a].body;
      connection.bodyJ = built[b].body;
      connection.markerI = built[a].side.markerId;
      connection.markerJ = built[b].side.markerId;
      addBodiesRead(built[a].reads, connection);
      addBodiesRead(built[b].reads, connection);
      result.pairs.push_back(std::move(pair));
    }
  }
  if (std::any_of(built.begin(), built.end(), [](const BuiltMagnet& magnet) { return magnet.soft.has_value(); })) {
    result.induced = buildInducedMagnets(built, model);
  }
  return result;
}

ElementAction magnetPairAction(const MagnetPair& pair, const ExpressionContext& context, MagnetPairPlan& plan) {
  const auto poseOf = [&](const MagnetPair::Side& side) {
    const MarkerMotion marker = context.marker(static_cast<int>(side.markerId));
    return MagnetPose{marker.rotation * side.inMarker.rotation,
                      marker.position + marker.rotation * side.inMarker.position};
  };
  const auto strengthOf = [&](const MagnetPair::Side& side) {
    return side.strength ? side.strength->evaluate(context) : 1.0;
  };
  const MagnetPose first = poseOf(pair.first);
  MagnetPose second = poseOf(pair.second);
  // Only magnets whose bounding spheres meet can overlap: most pairs of many magnets skip the narrow phase.
  const double reach = pair.first.boundingRadius + pair.second.boundingRadius;
  std::vector<ContactPoint> overlap;
  if ((second.position - first.position).norm() < reach &&
      collide(pair.first.shape, Pose{first.position + first.rotation * pair.first.shapeOrigin, first.rotation},
              pair.second.shape, Pose{second.position + second.rotation * pair.second.shapeOrigin, second.rotation},
              0, overlap) < 0 &&
      !overlap.empty()) {
    const auto shallower = [](const ContactPoint& a, const ContactPoint& b) { return a.depth < b.depth; };
    const auto deepest = std::max_element(overlap.begin(), overlap.end(), shallower);
    second.position -= deepest->depth * deepest->normal;  // the normal pushes the first out of the second
  }
  // The reaction acts where the second magnet was moved to (it differs by the overlap, micrometres): the pair's loads
  // balance about that pose, so the bodies' angular momentum stays balanced too.
  ElementAction action;
  action.field = true;
  action.point = first.position;
  action.reactionPoint = second.position;
  const double scale = pair.permeabilityScale * strengthOf(pair.first) * strengthOf(pair.second);
  if (scale == 0) return action;  // switched off: nothing to integrate
  const MagnetPairLoads loads =
      magnetPairInteraction(pair.first.magnet, first, pair.second.magnet, second, pair.accuracy, &plan);
  action.force = scale * loads.forceOnFirst;
  action.torque = scale * loads.torqueOnFirst;
  action.reactionForce = scale * loads.forceOnSecond;
  action.reactionTorque = scale * loads.torqueOnSecond;
  if (!loads.converged) {
    std::ostringstream trouble;
    trouble << "the surface-charge integration between " << pair.first.loc.subject() << " ("
            << pair.first.loc.position() << ") and " << pair.second.loc.subject() << " (" << pair.second.loc.position()
            << ") ran out of panels short of the accuracy asked (" << pair.accuracy << "): its force and torque are the"
            << " best found, with an estimated error of " << scale * loads.errorEstimate << " against a force of "
            << scale * loads.forceOnSecond.norm() << " (ask for what that error allows in their accuracy attributes)";
    action.trouble = trouble.str();
  }
  return action;
}

bool inducedMagnetsSwitchedOff(const InducedMagnets& law, const ExpressionContext& context) {
  return std::all_of(law.permanent.begin(), law.permanent.end(), [&](const InducedMagnets::Permanent& magnet) {
    return magnet.side.magnet.magnetisation.isZero(0) ||
           (magnet.side.strength && magnet.side.strength->evaluate(context) == 0);
  });
}

ElementAction inducedMagnetsAction(const InducedMagnets& law, const ExpressionContext& context) {
  const auto poseOf = [&](const MagnetPair::Side& side) {
    const MarkerMotion marker = context.marker(static_cast<int>(side.markerId));
    return MagnetPose{marker.rotation * side.inMarker.rotation,
                      marker.position + marker.rotation * side.inMarker.position};
  };
  if (inducedMagnetsSwitchedOff(law, context)) {  // no field: nothing is magnetised, nothing pulls
    ElementAction action;
    const auto unloaded = [&](const MagnetPair::Side& side, int body) {
      action.atMarkers.push_back(MarkerAction{side.markerId, body, Vector3::Zero(), Vector3::Zero(),
                                              poseOf(side).position});
    };
    for (const InducedMagnets::Soft& magnet : law.soft) unloaded(magnet.side, magnet.body);
    for (const InducedMagnets::Permanent& magnet : law.permanent) unloaded(magnet.side, magnet.body);
    return action;
  }
  std::vector<PlacedMagnet> permanent;
  permanent.reserve(law.permanent.size());
  for (const InducedMagnets::Permanent& magnet : law.permanent) {
    PlacedMagnet placed{magnet.side.magnet, poseOf(magnet.side)};
    if (magnet.side.strength) placed.magnet.magnetisation *= magnet.side.strength->evaluate(context);
    permanent.push_back(std::move(placed));
  }
  std::vector<SoftMagnet> soft;
  std::vector<MagnetPose> softPoses;
  for (const InducedMagnets::Soft& magnet : law.soft) {
    soft.push_back(magnet.magnet);
    softPoses.push_back(poseOf(magnet.side));
  }
  // Lengths in the deck's unit throughout: m = V·χ·H and the dipole fields keep any length unit, and μ0 in the deck's
  // force unit makes the forces the deck's (as magnetPairAction's).
  const InducedMagnetLoads loads = inducedMagnetLoads(permanent, soft, softPoses, law.settings);
  ElementAction action;
  action.field = true;
  const auto add = [&](const MagnetPair::Side& side, int body, const MagnetPose& pose, const MagnetLoad& load) {
    action.atMarkers.push_back(MarkerAction{side.markerId, body, law.permeabilityScale * load.force,
                                            law.permeabilityScale * load.torque, pose.position});
  };
  for (size_t s = 0; s < law.soft.size(); ++s) add(law.soft[s].side, law.soft[s].body, softPoses[s], loads.soft[s]);
  for (size_t k = 0; k < law.permanent.size(); ++k) {
    add(law.permanent[k].side, law.permanent[k].body, permanent[k].pose, loads.permanent[k]);
  }
  if (!loads.induction.converged()) {
    action.trouble = describeInduction(loads.induction, law.settings) + "; soft magnets ";
    for (size_t s = 0; s < law.soft.size(); ++s) {
      const SourceLoc& loc = law.soft[s].side.loc;
      action.trouble += (s > 0 ? ", " : "") + loc.subject() + " (" + loc.position() + ")";
    }
  }
  return action;
}

namespace {

// The least moment of inertia about an axis across `direction` (the turns a dipole along it feels): the smaller
// eigenvalue of the inertia on the plane across it.
double inertiaAcross(const Matrix3& inertia, const Vector3& direction) {
  const Vector3 first = direction.unitOrthogonal(), second = direction.cross(first);
  const double a = first.dot(inertia * first), b = first.dot(inertia * second), c = second.dot(inertia * second);
  return 0.5 * (a + c) - std::hypot(0.5 * (a - c), b);
}

}  // namespace

std::optional<double> farMagnetPairCoupling(const MagnetPair& pair, const ForceConnection& connection,
                                            const ExpressionContext& context, const Model& model,
                                            std::span<const BodyKinematics> bodies) {
  if (pair.first.strength || pair.second.strength) return std::nullopt;
  struct Placed {
    Vector3 centre, direction;
    double moment = 0, reach = 0;
  };
  const auto place = [&](const MagnetPair::Side& side) {
    const MarkerMotion marker = context.marker(static_cast<int>(side.markerId));
    const Magnet& magnet = side.magnet;
    const double moment = side.volume * magnet.magnetisation.norm();
    const Vector3 direction = moment > 0 ? Vector3(magnet.magnetisation.normalized()) : Vector3::UnitZ();
    return Placed{marker.position + marker.rotation * side.inMarker.position,
                  marker.rotation * side.inMarker.rotation * direction, moment, side.boundingRadius};
  };
  const Placed first = place(pair.first), second = place(pair.second);
  const double distance = (second.centre - first.centre).norm();
  if (distance <= kFarMagnetPairReach * (first.reach + second.reach)) return std::nullopt;
  const double energy = pair.permeabilityScale * kVacuumPermeability * first.moment * second.moment /
                        (4 * std::numbers::pi * std::pow(distance, 3));
  const double translation = 30 * energy / (distance * distance), rotation = 4 * energy,
               across = 12 * energy / distance;
  double coupling = 0;
  for (const auto& [body, magnet] : {std::pair{connection.bodyI, &first}, std::pair{connection.bodyJ, &second}}) {
    if (body < 0) continue;
    const RigidBody& rigid = model.bodies[static_cast<size_t>(body)];
    const BodyKinematics& kinematics = bodies[static_cast<size_t>(body)];
    const double mass = model.units.massFactor * rigid.mass;
    const Matrix3 inertia =
        model.units.massFactor * kinematics.rotation * rigid.inertia * kinematics.rotation.transpose();
    const double turnAcross = inertiaAcross(inertia, magnet->direction);
    const double turnAbout = magnet->direction.dot(inertia * magnet->direction);
    if (mass <= 0 || turnAcross <= 0 || turnAbout <= 0) return std::nullopt;
    // Turning the body about its CG moves the magnet by its lever, so the pair's translation stiffness reaches the
    // body's turns through it.
    const double lever = (magnet->centre - kinematics.position).norm();
    const double turning = rotation + 2 * lever * across + lever * lever * translation;
    const double coupled = across + lever * translation;
    const double aboutMagnetisation = 4 * energy * std::pow(magnet->reach / distance, 2);
    coupling = std::max(coupling, translation / mass + turning / turnAcross +
                                      2 * coupled / std::sqrt(mass * turnAcross) + aboutMagnetisation / turnAbout);
  }
  return coupling;
}

}  // namespace lodestone
