// The results tables — bodies, contacts, impacts, energy, joints, events, requests — each defined once: every column's name,
// type, what it measures (hence its units) and how its value is read from a row. The CSV files and results.h5 both
// write from these definitions (DESIGN.md, "Results and logs"), so a new column is added here, once.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "body_results_writer.h"
#include "cell_type.h"
#include "elements/contact_evaluator.h"
#include "elements/post_request.h"
#include "energy_results_writer.h"
#include "impact_results_writer.h"
#include "solver/core/units.h"

namespace lodestone {

// One joint's, primitive's or motion's reaction on its I marker, in ground: force, and torque about the marker's
// origin. A Motion_Joint's is the force or torque that drives it (its joint's reaction does not include it). The
// reaction on the J marker (about J's origin) is kept beside it for requests that measure the force on J.
struct JointReaction {
  long id = 0;
  std::string element;  // "Constraint_Joint", "Constraint_Jprim" or "Motion_Joint"
  long markerI = 0, markerJ = 0;  // Reference_Marker ids
  Vector3 force = Vector3::Zero();
  Vector3 torque = Vector3::Zero();
  Vector3 forceOnJ = Vector3::Zero();
  Vector3 torqueOnJ = Vector3::Zero();
};

// One action a Sensor_Event carried out (events.csv: time,id,action,value), or a contact's slip change (action
// "slip_change", id the Force_Contact's, value 0 when slip began and 1 when it ended, as PFC's slip_change event), or
// its activation (action "contact_activated", value 0, as PFC's contact_activated event).
struct SensorAction {
  double time = 0;
  long id = 0;
  std::string action;  // "halt", "return", "print", "restart", "dt", "hmax", "stepsize"; "none" for a sensor without
  double value = 0;    // the sensor's expression at `time`
};

// The rows of the tables whose items carry no time of their own.
struct BodyRow {
  double time;
  const BodySample& body;
};
struct ContactRow {
  double time;
  const PairReport& pair;
};
struct JointRow {
  double time;
  const JointReaction& joint;
};
struct RequestRow {
  double time;
  const RequestSample& request;
};
struct CloudPointRow {
  double time;
  const PairReport& pair;
  const CloudPointReport& point;
};

// What a column measures, in the deck's units; None for ids, flags, counts and values without a unit of their own.
enum class Quantity {
  None, Ratio, Time, Length, Velocity, Acceleration, AngularVelocity, AngularAcceleration, Force, Torque, Energy,
  Impulse
};

// "millimeter/second^2" for Acceleration in a deck in millimetres and seconds; "" for None, "1" for Ratio.
std::string unitsOf(Quantity quantity, const UnitSystem& units);

// One value: empty when not known yet (the separation of a contact still closed when the run ended).
using Cell = std::variant<std::monostate, double, long, bool, std::string_view>;

template <class Row>
struct ResultColumn {
  std::string name;     // the CSV header's, and the dataset's in results.h5
  CellType type;
  Quantity quantity;
  std::string meaning;  // one line, for results.h5's attribute
  std::function<Cell(const Row&)> value;
};

template <class Row>
struct ResultTable {
  std::string name;     // "bodies": bodies.csv, and the group /bodies in results.h5
  std::string meaning;  // one line, for results.h5's attribute
  std::vector<ResultColumn<Row>> columns;
};

const ResultTable<BodyRow>& bodiesTable();
const ResultTable<ContactRow>& contactsTable();
const ResultTable<ImpactEpisode>& impactsTable();
const ResultTable<EnergySample>& energyTable();
const ResultTable<JointRow>& jointsTable();
const ResultTable<SensorAction>& eventsTable();
const ResultTable<RequestRow>& requestsTable();
const ResultTable<CloudPointRow>& cloudPointsTable();

// The rows of cloud_points.csv at one output: every point of every point cloud in a pair within reach, in the cloud's
// order.
std::vector<CloudPointRow> cloudPointRows(double time, std::span<const PairReport> pairs);

// The CSV header line (without its newline).
template <class Row>
std::string csvHeader(const ResultTable<Row>& table) {
  std::string header;
  for (const ResultColumn<Row>& column : table.columns) header += (header.empty() ? "" : ",") + column.name;
  return header;
}

// Appends `cell` as CSV text: shortest round-trip numbers, 1/0 flags, nothing when empty.
void appendCsvCell(std::string& out, const Cell& cell);

// Appends one CSV line for `row`.
template <class Row>
void appendCsvRow(const ResultTable<Row>& table, const Row& row, std::string& out) {
  bool first = true;
  for (const ResultColumn<Row>& column : table.columns) {
    if (!first) out += ',';
    first = false;
    appendCsvCell(out, column.value(row));
  }
  out += '\n';
}

}  // namespace lodestone
