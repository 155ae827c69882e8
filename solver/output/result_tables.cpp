// The columns of every results table, and how a cell becomes CSV text.
#include "result_tables.h"

#include <initializer_list>
#include <optional>

#include "solver/core/text.h"

namespace lodestone {

namespace {

template <class Row>
using Columns = std::vector<ResultColumn<Row>>;

// One column per component of a vector (or the four Euler parameters) that `of` reads from a row.
template <class Row, class Of>
void addComponents(Columns<Row>& columns, std::initializer_list<const char*> names, Quantity quantity,
                   const std::string& meaning, Of of) {
  int k = 0;
  for (const char* name : names) {
    columns.push_back({name, CellType::Real, quantity, meaning, [of, k](const Row& row) -> Cell {
                         return static_cast<double>(of(row)[k]);
                       }});
    ++k;
  }
}

Cell optionalReal(const std::optional<double>& value) { return value ? Cell(*value) : Cell(); }

}  // namespace

std::string unitsOf(Quantity quantity, const UnitSystem& units) {
  const std::string length = toLower(units.length), force = toLower(units.force), time = toLower(units.time);
  switch (quantity) {
    case Quantity::None: return "";
    case Quantity::Ratio: return "1";
    case Quantity::Time: return time;
    case Quantity::Length: return length;
    case Quantity::Velocity: return length + "/" + time;
    case Quantity::Acceleration: return length + "/" + time + "^2";
    case Quantity::AngularVelocity: return "radian/" + time;
    case Quantity::AngularAcceleration: return "radian/" + time + "^2";
    case Quantity::Force: return force;
    case Quantity::Torque:
    case Quantity::Energy: return force + "*" + length;
    case Quantity::Impulse: return force + "*" + time;
  }
  return "";
}

void appendCsvCell(std::string& out, const Cell& cell) {
  if (const double* real = std::get_if<double>(&cell)) {
    appendReal(out, *real);
  } else if (const long* integer = std::get_if<long>(&cell)) {
    out += std::to_string(*integer);
  } else if (const bool* flag = std::get_if<bool>(&cell)) {
    out += *flag ? '1' : '0';
  } else if (const std::string_view* text = std::get_if<std::string_view>(&cell)) {
    out += *text;
  }
}

const ResultTable<BodyRow>& bodiesTable() {
  static const ResultTable<BodyRow> table = [] {
    ResultTable<BodyRow> t{"bodies", "every moving body's state at every output time, in ground", {}};
    t.columns.push_back({"time", CellType::Real, Quantity::Time, "output time",
                         [](const BodyRow& row) -> Cell { return row.time; }});
    t.columns.push_back({"id", CellType::Integer, Quantity::None, "Body_Rigid or Body_Point id",
                         [](const BodyRow& row) -> Cell { return row.body.id; }});
    addComponents(t.columns, {"x", "y", "z"}, Quantity::Length, "CG position",
                  [](const BodyRow& row) { return row.body.position; });
    addComponents(t.columns, {"e0", "e1", "e2", "e3"}, Quantity::Ratio, "Euler parameters of the body axes",
                  [](const BodyRow& row) { return row.body.eulerParameters; });
    addComponents(t.columns, {"vx", "vy", "vz"}, Quantity::Velocity, "CG velocity",
                  [](const BodyRow& row) { return row.body.velocity; });
    addComponents(t.columns, {"wx", "wy", "wz"}, Quantity::AngularVelocity, "angular velocity, ground axes",
                  [](const BodyRow& row) { return row.body.angularVelocity; });
    addComponents(t.columns, {"ax", "ay", "az"}, Quantity::Acceleration, "CG acceleration",
                  [](const BodyRow& row) { return row.body.acceleration; });
    addComponents(t.columns, {"wdx", "wdy", "wdz"}, Quantity::AngularAcceleration,
                  "angular acceleration, ground axes", [](const BodyRow& row) { return row.body.angularAcceleration; });
    return t;
  }();
  return table;
}

const ResultTable<ContactRow>& contactsTable() {
  static const ResultTable<ContactRow> table = [] {
    ResultTable<ContactRow> t{"contacts", "every contact pair within reach at every output time", {}};
    auto& c = t.columns;
    c.push_back({"time", CellType::Real, Quantity::Time, "output time",
                 [](const ContactRow& row) -> Cell { return row.time; }});
    c.push_back({"id", CellType::Integer, Quantity::None, "Force_Contact id",
                 [](const ContactRow& row) -> Cell { return row.pair.elementId; }});
    c.push_back({"i_graphic", CellType::Integer, Quantity::None, "Post_Graphic id on the I side",
                 [](const ContactRow& row) -> Cell { return row.pair.iGraphic; }});
    c.push_back({"j_graphic", CellType::Integer, Quantity::None, "Post_Graphic id on the J side",
                 [](const ContactRow& row) -> Cell { return row.pair.jGraphic; }});
    c.push_back({"in_contact", CellType::Flag, Quantity::None, "1 while the pair touches",
                 [](const ContactRow& row) -> Cell { return row.pair.inContact; }});
    c.push_back({"points", CellType::Integer, Quantity::None, "number of contact points",
                 [](const ContactRow& row) -> Cell { return static_cast<long>(row.pair.points); }});
    c.push_back({"penetration", CellType::Real, Quantity::Length, "largest depth",
                 [](const ContactRow& row) -> Cell { return row.pair.penetration; }});
    c.push_back({"separation", CellType::Real, Quantity::Length, "gap while apart, 0 in contact",
                 [](const ContactRow& row) -> Cell { return row.pair.separation; }});
    c.push_back({"penetration_rate", CellType::Real, Quantity::Velocity, "at the deepest point",
                 [](const ContactRow& row) -> Cell { return row.pair.penetrationRate; }});
    c.push_back({"slip_speed", CellType::Real, Quantity::Velocity, "at the deepest point",
                 [](const ContactRow& row) -> Cell { return row.pair.slipSpeed; }});
    c.push_back({"fn", CellType::Real, Quantity::Force, "sum of the points' normal force magnitudes",
                 [](const ContactRow& row) -> Cell { return row.pair.normalForce; }});
    c.push_back({"ft", CellType::Real, Quantity::Force, "sum of the points' friction force magnitudes",
                 [](const ContactRow& row) -> Cell { return row.pair.frictionForce; }});
    addComponents(c, {"fx", "fy", "fz"}, Quantity::Force, "total force on the I body, ground",
                  [](const ContactRow& row) { return row.pair.force; });
    addComponents(c, {"tx", "ty", "tz"}, Quantity::Torque, "total torque on the I body about its CG, ground",
                  [](const ContactRow& row) { return row.pair.torque; });
    addComponents(c, {"px", "py", "pz"}, Quantity::Length, "contact point: the points' force-weighted centroid",
                  [](const ContactRow& row) { return row.pair.point; });
    addComponents(c, {"nx", "ny", "nz"}, Quantity::Ratio, "unit normal from J to I at the deepest point",
                  [](const ContactRow& row) { return row.pair.normal; });
    c.push_back({"interval_max_fn", CellType::Real, Quantity::Force, "largest normal force since the previous output",
                 [](const ContactRow& row) -> Cell { return row.pair.intervalMaxNormalForce; }});
    c.push_back({"interval_max_penetration", CellType::Real, Quantity::Length,
                 "largest penetration since the previous output",
                 [](const ContactRow& row) -> Cell { return row.pair.intervalMaxPenetration; }});
    // Simscape's sensing, J the base geometry and I the follower: the contact frame at (px, py, pz), its z the normal.
    c.push_back({"vn", CellType::Real, Quantity::Velocity,
                 "I's velocity relative to J along the contact frame's z (the normal), < 0 approaching",
                 [](const ContactRow& row) -> Cell { return row.pair.normalVelocity; }});
    addComponents(c, {"vtx", "vty"}, Quantity::Velocity, "I's velocity relative to J along the contact frame's x, y",
                  [](const ContactRow& row) { return row.pair.tangentialVelocity; });
    addComponents(c, {"j_px", "j_py", "j_pz"}, Quantity::Length,
                  "contact point in the axes of J's graphic's reference marker, from it",
                  [](const ContactRow& row) { return row.pair.pointInJ; });
    addComponents(c, {"j_e0", "j_e1", "j_e2", "j_e3"}, Quantity::Ratio,
                  "Euler parameters of the contact frame relative to J's graphic's reference marker",
                  [](const ContactRow& row) { return row.pair.frameInJ; });
    addComponents(c, {"i_px", "i_py", "i_pz"}, Quantity::Length,
                  "contact point in the axes of I's graphic's reference marker, from it",
                  [](const ContactRow& row) { return row.pair.pointInI; });
    addComponents(c, {"i_e0", "i_e1", "i_e2", "i_e3"}, Quantity::Ratio,
                  "Euler parameters of the contact frame relative to I's graphic's reference marker",
                  [](const ContactRow& row) { return row.pair.frameInI; });
    return t;
  }();
  return table;
}

const ResultTable<CloudPointRow>& cloudPointsTable() {
  static const ResultTable<CloudPointRow> table = [] {
    ResultTable<CloudPointRow> t{"cloud_points",
                                 "every point of a point cloud in a contact pair within reach, in the cloud's order, "
                                 "at every output time",
                                 {}};
    auto& c = t.columns;
    c.push_back({"time", CellType::Real, Quantity::Time, "output time",
                 [](const CloudPointRow& row) -> Cell { return row.time; }});
    c.push_back({"id", CellType::Integer, Quantity::None, "Force_Contact id",
                 [](const CloudPointRow& row) -> Cell { return row.pair.elementId; }});
    c.push_back({"graphic", CellType::Integer, Quantity::None, "the point cloud's Post_Graphic id",
                 [](const CloudPointRow& row) -> Cell { return row.pair.cloudGraphic; }});
    c.push_back({"other_graphic", CellType::Integer, Quantity::None, "the Post_Graphic id the cloud meets",
                 [](const CloudPointRow& row) -> Cell {
                   return row.pair.cloudGraphic == row.pair.iGraphic ? row.pair.jGraphic : row.pair.iGraphic;
                 }});
    c.push_back({"point", CellType::Integer, Quantity::None, "the point's index in the cloud, from 0",
                 [](const CloudPointRow& row) -> Cell { return static_cast<long>(row.point.index); }});
    c.push_back({"in_contact", CellType::Flag, Quantity::None, "1 while the point penetrates",
                 [](const CloudPointRow& row) -> Cell { return row.point.inContact; }});
    c.push_back({"penetration", CellType::Real, Quantity::Length, "the point's depth, 0 apart",
                 [](const CloudPointRow& row) -> Cell { return row.point.penetration; }});
    c.push_back({"separation", CellType::Real, Quantity::Length,
                 "the point's signed distance: the gap apart, minus the depth in contact",
                 [](const CloudPointRow& row) -> Cell { return row.point.separation; }});
    c.push_back({"fn", CellType::Real, Quantity::Force, "normal force magnitude at the point",
                 [](const CloudPointRow& row) -> Cell { return row.point.normalForce; }});
    c.push_back({"ft", CellType::Real, Quantity::Force, "friction force magnitude at the point",
                 [](const CloudPointRow& row) -> Cell { return row.point.frictionForce; }});
    return t;
  }();
  return table;
}

std::vector<CloudPointRow> cloudPointRows(double time, std::span<const PairReport> pairs) {
  std::vector<CloudPointRow> rows;
  for (const PairReport& pair : pairs) {
    for (const CloudPointReport& point : pair.cloudPoints) rows.push_back({time, pair, point});
  }
  return rows;
}

const ResultTable<ImpactEpisode>& impactsTable() {
  using E = ImpactEpisode;
  static const ResultTable<E> table = [] {
    ResultTable<E> t{"impacts", "every contact episode of a pair, from onset to separation", {}};
    auto& c = t.columns;
    c.push_back({"id", CellType::Integer, Quantity::None, "Force_Contact id",
                 [](const E& e) -> Cell { return e.elementId; }});
    c.push_back({"i_graphic", CellType::Integer, Quantity::None, "Post_Graphic id on the I side",
                 [](const E& e) -> Cell { return e.iGraphic; }});
    c.push_back({"j_graphic", CellType::Integer, Quantity::None, "Post_Graphic id on the J side",
                 [](const E& e) -> Cell { return e.jGraphic; }});
    c.push_back({"onset_time", CellType::Real, Quantity::Time, "first touch",
                 [](const E& e) -> Cell { return e.onsetTime; }});
    c.push_back({"onset_located", CellType::Flag, Quantity::None, "1: found by root finding, 0: after a step",
                 [](const E& e) -> Cell { return e.onsetLocated; }});
    c.push_back({"separation_time", CellType::Real, Quantity::Time, "empty (NaN): still in contact at the end",
                 [](const E& e) -> Cell { return optionalReal(e.separationTime); }});
    c.push_back({"separation_located", CellType::Flag, Quantity::None,
                 "1: found by root finding, 0: after a step; empty (-1): still in contact",
                 [](const E& e) -> Cell { return e.separationTime ? Cell(e.separationLocated) : Cell(); }});
    c.push_back({"peak_fn", CellType::Real, Quantity::Force, "largest normal force",
                 [](const E& e) -> Cell { return e.peakNormalForce; }});
    c.push_back({"peak_time", CellType::Real, Quantity::Time, "when the normal force peaked",
                 [](const E& e) -> Cell { return e.peakTime; }});
    c.push_back({"max_penetration", CellType::Real, Quantity::Length, "deepest penetration",
                 [](const E& e) -> Cell { return e.maxPenetration; }});
    c.push_back({"impulse", CellType::Real, Quantity::Impulse, "normal impulse over the episode",
                 [](const E& e) -> Cell { return e.normalImpulse; }});
    c.push_back({"v_in", CellType::Real, Quantity::Velocity, "normal approach speed at the onset",
                 [](const E& e) -> Cell { return e.velocityIn; }});
    c.push_back({"v_out", CellType::Real, Quantity::Velocity, "normal receding speed at the separation",
                 [](const E& e) -> Cell { return optionalReal(e.velocityOut); }});
    c.push_back({"restitution", CellType::Real, Quantity::Ratio, "v_out / v_in",
                 [](const E& e) -> Cell { return optionalReal(e.restitution()); }});
    return t;
  }();
  return table;
}

const ResultTable<EnergySample>& energyTable() {
  static const ResultTable<EnergySample> table = [] {
    ResultTable<EnergySample> t{"energy", "the energy balance at every output time", {}};
    t.columns.push_back({"time", CellType::Real, Quantity::Time, "output time",
                         [](const EnergySample& sample) -> Cell { return sample.time; }});
    for (const EnergyColumn& column : kEnergyColumns) {
      const char* meaning = column.term == EnergyTerm::Held         ? "held at this time"
                            : column.term == EnergyTerm::Dissipated ? "dissipated since the run's start"
                            : column.term == EnergyTerm::Work       ? "work done on the bodies since the run's start"
                                                                    : "the integrator's own gain (> 0) or loss";
      double EnergySample::*field = column.value;
      t.columns.push_back({column.name, CellType::Real, Quantity::Energy, meaning,
                           [field](const EnergySample& sample) -> Cell { return sample.*field; }});
    }
    return t;
  }();
  return table;
}

const ResultTable<JointRow>& jointsTable() {
  static const ResultTable<JointRow> table = [] {
    ResultTable<JointRow> t{"joints",
                            "every joint's reaction and every motion's driving load on its I marker at every output "
                            "time, in ground",
                            {}};
    t.columns.push_back({"time", CellType::Real, Quantity::Time, "output time",
                         [](const JointRow& row) -> Cell { return row.time; }});
    t.columns.push_back({"id", CellType::Integer, Quantity::None, "Constraint_Joint, Constraint_Jprim or Motion_Joint id",
                         [](const JointRow& row) -> Cell { return row.joint.id; }});
    t.columns.push_back({"element", CellType::Text, Quantity::None,
                         "Constraint_Joint, Constraint_Jprim or Motion_Joint: a motion and a joint may share an id",
                         [](const JointRow& row) -> Cell { return std::string_view(row.joint.element); }});
    addComponents(t.columns, {"fx", "fy", "fz"}, Quantity::Force, "reaction force on the I marker",
                  [](const JointRow& row) { return row.joint.force; });
    addComponents(t.columns, {"tx", "ty", "tz"}, Quantity::Torque, "reaction torque about the I marker's origin",
                  [](const JointRow& row) { return row.joint.torque; });
    return t;
  }();
  return table;
}

const ResultTable<RequestRow>& requestsTable() {
  static const ResultTable<RequestRow> table = [] {
    ResultTable<RequestRow> t{"requests", "every Post_Request's values F1..F8 at every output time", {}};
    t.columns.push_back({"time", CellType::Real, Quantity::Time, "output time",
                         [](const RequestRow& row) -> Cell { return row.time; }});
    t.columns.push_back({"id", CellType::Integer, Quantity::None, "Post_Request id",
                         [](const RequestRow& row) -> Cell { return row.request.id; }});
    t.columns.push_back({"type", CellType::Text, Quantity::None,
                         "MARKER_DISPLACEMENT, MARKER_VELOCITY, MARKER_ACCELERATION, MARKER_FORCE or EXPRESSION",
                         [](const RequestRow& row) -> Cell {
                           return std::string_view(requestTypeName(row.request.type));
                         }});
    for (size_t k = 0; k < 8; ++k) {
      // Each type gives its components their own units (elements/post_request.h): none are attached here.
      t.columns.push_back({"f" + std::to_string(k + 1), CellType::Real, Quantity::None,
                           "component F" + std::to_string(k + 1) + " of the request, as its type defines it",
                           [k](const RequestRow& row) -> Cell { return row.request.values[k]; }});
    }
    return t;
  }();
  return table;
}

const ResultTable<SensorAction>& eventsTable() {
  static const ResultTable<SensorAction> table = [] {
    ResultTable<SensorAction> t{"events",
                                "every action a Sensor_Event carried out, and every slip change and activation of a "
                                "contact under PFC's laws",
                                {}};
    t.columns.push_back({"time", CellType::Real, Quantity::Time,
                         "when the sensor fired, the slip changed or the contact began",
                         [](const SensorAction& action) -> Cell { return action.time; }});
    // The id's meaning names Sensor_Event alone: the Python reader labels ids by the elements it names, and a
    // slip_change or contact_activated row, whose id is its contact element's, is told apart by its action.
    t.columns.push_back({"id", CellType::Integer, Quantity::None,
                         "Sensor_Event id; for slip_change and contact_activated its contact's id",
                         [](const SensorAction& action) -> Cell { return action.id; }});
    t.columns.push_back({"action", CellType::Text, Quantity::None,
                         "halt, return, print, restart, dt, hmax, stepsize, none; slip_change, contact_activated",
                         [](const SensorAction& action) -> Cell { return std::string_view(action.action); }});
    t.columns.push_back({"value", CellType::Real, Quantity::None,
                         "the sensor's expression, in its own units; slip_change: 0 slip began, 1 it ended; "
                         "contact_activated: 0",
                         [](const SensorAction& action) -> Cell { return action.value; }});
    return t;
  }();
  return table;
}

}  // namespace lodestone
