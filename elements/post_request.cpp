// Post_Request: attributes, checks, the model's requests and their values.
#include "post_request.h"

#include <algorithm>

#include "elements/constraint_joint.h"
#include "elements/force_elements.h"
#include "elements/subroutine_state.h"
#include "solver/core/marker_measures.h"
#include "solver/core/text.h"

namespace lodestone {

using S = PostRequestSpec;

namespace {

const char* const kMarkerTypes[] = {"MARKER_DISPLACEMENT", "MARKER_VELOCITY", "MARKER_ACCELERATION", "MARKER_FORCE"};

std::vector<Attribute<S>> markerAttributes() {
  return {attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required(),
          attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").groundFrame().byDefault(0L),
          attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").groundFrame().byDefault(0L)};
}

std::vector<Attribute<S>> expressionAttributes() {
  std::vector<Attribute<S>> rows;
  for (size_t k = 0; k < 8; ++k) {
    rows.push_back(attr::make<S>("expr" + std::to_string(k + 1), ValueKind::Text, [k](S& spec, const Value& value) {
      spec.expressions[k] = std::get<std::string>(value);
    }));
  }
  return rows;
}

// What a request's expression attribute holds: nothing for "NULL", MotionView's word for an unused component.
std::optional<std::string> componentText(const std::optional<std::string>& text) {
  if (!text || equalsIgnoreCase(trim(*text), "NULL")) return std::nullopt;
  return text;
}

std::string expressionAttribute(size_t k) { return "expr" + std::to_string(k + 1); }

std::optional<RequestType> writableType(const std::string& type) {
  if (type == "MARKER_DISPLACEMENT") return RequestType::Displacement;
  if (type == "MARKER_VELOCITY") return RequestType::Velocity;
  if (type == "MARKER_ACCELERATION") return RequestType::Acceleration;
  if (type == "MARKER_FORCE") return RequestType::Force;
  if (type == "EXPRESSION") return RequestType::Expression;
  if (type == "USERSUB") return RequestType::UserSubroutine;
  return std::nullopt;  // ELEMENTAL_FORCE
}

// Whether some joint, motion or force element acts between markers i and j (j = 0: at i).
bool markersJoined(const Model& model, long i, long j) {
  const auto joins = [&](long a, long b) { return (a == i && (j == 0 || b == j)) || (b == i && (j == 0 || a == j)); };
  if (model.constraints) {
    for (const Joint& joint : model.constraints->joints) {
      if (joins(model.markers[static_cast<size_t>(joint.markerI)].id,
                model.markers[static_cast<size_t>(joint.markerJ)].id)) {
        return true;
      }
    }
  }
  if (model.forces) {
    for (const ForceElement& element : model.forces->elements) {
      if (joins(element.connection.markerI, element.connection.markerJ)) return true;
      // The induced magnets act at every magnet's marker, each alone.
      if (const auto* induced = std::get_if<InducedMagnets>(&element.law)) {
        for (const InducedMagnets::Soft& magnet : induced->soft) {
          if (joins(magnet.side.markerId, 0)) return true;
        }
        for (const InducedMagnets::Permanent& magnet : induced->permanent) {
          if (joins(magnet.side.markerId, 0)) return true;
        }
      }
    }
  }
  return false;
}

using Measure = std::optional<MarkerMeasure>;
using M = MarkerMeasure;
// F1..F8 of the marker requests, as marker measures; nothing is 0.
constexpr std::array<Measure, 8> kDisplacement{M::DM, M::DX, M::DY, M::DZ, std::nullopt, M::PSI, M::THETA, M::PHI};
constexpr std::array<Measure, 8> kVelocity{M::VM, M::VX, M::VY, M::VZ, M::WM, M::WX, M::WY, M::WZ};
constexpr std::array<Measure, 8> kAcceleration{M::ACCM, M::ACCX, M::ACCY, M::ACCZ, M::WDTM, M::WDTX, M::WDTY, M::WDTZ};

const std::array<Measure, 8>& measuresOf(RequestType type) {
  return type == RequestType::Displacement ? kDisplacement : type == RequestType::Velocity ? kVelocity : kAcceleration;
}

}  // namespace

const ElementSchema<PostRequestSpec>& postRequestSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "Post_Request",
        .idField = &S::id,
        .attributes = {
            attr::text("label", &S::label),
            attr::keyword("type", &S::type,
                          {"MARKER_DISPLACEMENT", "MARKER_VELOCITY", "MARKER_ACCELERATION", "MARKER_FORCE",
                           "EXPRESSION", "USERSUB", "ELEMENTAL_FORCE"})
                .required(),
            attr::presentation<S>("comment"),
            attr::presentation<S>("full_label"),
        }};
    VariantSet<S> types{"type", {}};
    for (const char* type : kMarkerTypes) types.variants.emplace_back(type, markerAttributes());
    types.variants.emplace_back("EXPRESSION", expressionAttributes());
    std::vector<Attribute<S>> subroutineRows;
    addSubroutineRows(subroutineRows, &S::subroutine);
    types.variants.emplace_back("USERSUB", std::move(subroutineRows));
    types.variants.emplace_back(
        "ELEMENTAL_FORCE",
        std::vector<Attribute<S>>{attr::text("elem_type", &S::elem_type), attr::text("jflag", &S::jflag),
                                  attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker")
                                      .groundFrame()
                                      .byDefault(0L)});
    made.variantSets.push_back(std::move(types));
    return made;
  }();
  return schema;
}

void checkPostRequest(const PostRequestSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    checkSubroutineAttributes(spec.subroutine, "REQSUB", spec.loc, diagnostics);
    return;
  }
  if (spec.type == "ELEMENTAL_FORCE") {
    diagnostics.warning(spec.loc, "type=\"ELEMENTAL_FORCE\" is not supported yet; this request is not written to "
                                  "requests.csv (MARKER_FORCE between the element's markers gives its force)");
    return;
  }
  if (spec.type != "EXPRESSION") return;
  for (size_t k = 0; k < spec.expressions.size(); ++k) {
    if (const std::optional<std::string> text = componentText(spec.expressions[k])) {
      compileAttribute(expressionAttribute(k), *text, spec.loc, diagnostics);
    }
  }
}

const char* requestTypeName(RequestType type) {
  switch (type) {
    case RequestType::Displacement: return "MARKER_DISPLACEMENT";
    case RequestType::Velocity: return "MARKER_VELOCITY";
    case RequestType::Acceleration: return "MARKER_ACCELERATION";
    case RequestType::Force: return "MARKER_FORCE";
    case RequestType::Expression: return "EXPRESSION";
    case RequestType::UserSubroutine: return "USERSUB";
  }
  return "EXPRESSION";
}

std::shared_ptr<const RequestModel> buildRequestModel(const std::vector<PostRequestSpec>& specs, const Model& model,
                                                      Diagnostics& diagnostics) {
  auto result = std::make_shared<RequestModel>();
  for (const PostRequestSpec& spec : specs) {
    const std::optional<RequestType> type = writableType(spec.type);
    if (!type) continue;  // warned about by checkPostRequest
    Request request{.id = spec.id,
                    .loc = spec.loc,
                    .type = *type,
                    .markerI = spec.i_marker_id,
                    .markerJ = spec.j_marker_id,
                    .refMarker = spec.ref_marker_id};
    bool built = true;
    if (*type == RequestType::UserSubroutine) {
      request.subroutine = buildOutputSubroutine(spec.subroutine, "REQSUB", 8,
                                                 "[f1, f2, f3, f4, f5, f6, f7, f8], the request's eight values",
                                                 spec.loc, model, diagnostics);
      built = request.subroutine.has_value();
      if (built) {
        const OutputReads reads = subroutineReads(*request.subroutine, model);
        result->readsContacts = result->readsContacts || reads.contacts;
        result->readsLoads = result->readsLoads || reads.loads;
      }
    }
    for (size_t k = 0; *type == RequestType::Expression && k < spec.expressions.size(); ++k) {
      const std::optional<std::string> text = componentText(spec.expressions[k]);
      if (!text) continue;
      const std::string attribute = expressionAttribute(k);
      request.expressions[k] = compileModelAttribute(attribute, *text, spec.loc, model, diagnostics);
      built = built && request.expressions[k] &&
              checkExpressionReferences(*request.expressions[k], attribute, spec.loc, model, diagnostics);
      result->readsContacts =
          result->readsContacts || (built && readsContacts(*request.expressions[k], model.variables.get()));
      result->readsLoads = result->readsLoads || (built && readsLoads(*request.expressions[k], model.variables.get()));
    }
    if (*type == RequestType::Force && !markersJoined(model, spec.i_marker_id, spec.j_marker_id)) {
      diagnostics.warning(spec.loc, "no joint, motion or force element acts " +
                                        (spec.j_marker_id == 0
                                             ? "at Reference_Marker id=" + std::to_string(spec.i_marker_id)
                                             : "between Reference_Marker id=" + std::to_string(spec.i_marker_id) +
                                                   " and id=" + std::to_string(spec.j_marker_id)) +
                                        ", so this request's force is zero (contacts are not counted: they act "
                                        "between graphics)");
    }
    if (built) result->requests.push_back(std::move(request));
  }
  return result;
}

RequestEvaluator::RequestEvaluator(const Model& model)
    : model_(model), context_(model), requests_(model.requests.get()) {}

bool RequestEvaluator::needsLoads() const {
  return !empty() && (requests_->readsLoads ||
                      std::any_of(requests_->requests.begin(), requests_->requests.end(),
                                  [](const Request& request) { return request.type == RequestType::Force; }));
}

void RequestEvaluator::evaluate(double time, std::span<const BodyKinematics> bodies,
                                const std::vector<MarkerPairLoad>& loads, std::vector<RequestSample>& samples,
                                const ContactMeasures* contacts) {
  samples.clear();
  if (empty()) return;
  context_.setState(time, bodies, contacts, needsLoads() ? &loads : nullptr);
  for (const Request& request : requests_->requests) {
    RequestSample sample{.id = request.id, .type = request.type};
    std::array<double, 8>& f = sample.values;
    const MarkerMotion axes = context_.marker(static_cast<int>(request.refMarker));
    if (request.type == RequestType::UserSubroutine) {
      f = callElementSubroutine(*request.subroutine, ContextSubroutineState(model_, context_), false);
    } else if (request.type == RequestType::Expression) {
      for (size_t k = 0; k < f.size(); ++k) {
        if (request.expressions[k]) f[k] = request.expressions[k]->evaluate(context_);
      }
    } else if (request.type == RequestType::Force) {
      // Adams' FX..TM: every load between I and J, on I, the torques about I's origin.
      const MarkerLoads onI = loadOnMarker(loads, request.markerI, request.markerJ);
      const Vector3& force = onI.forceOnI;
      const Vector3& torque = onI.torqueOnI;
      const Vector3 forceInAxes = axes.rotation.transpose() * force;
      const Vector3 torqueInAxes = axes.rotation.transpose() * torque;
      f = {force.norm(), forceInAxes.x(), forceInAxes.y(), forceInAxes.z(),
           torque.norm(), torqueInAxes.x(), torqueInAxes.y(), torqueInAxes.z()};
    } else {
      const MarkerMotion i = context_.marker(static_cast<int>(request.markerI));
      const MarkerMotion j = context_.marker(static_cast<int>(request.markerJ));
      const std::array<Measure, 8>& measures = measuresOf(request.type);
      for (size_t k = 0; k < f.size(); ++k) {
        if (measures[k]) f[k] = markerMeasure(*measures[k], i, j, axes);
      }
    }
    samples.push_back(sample);
  }
}

}  // namespace lodestone
