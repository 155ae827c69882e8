// Helpers for joint tests: deck statements for markers given by their axes and bodies given by their inertia, and
// the geometry of a body's points and axes at an output of bodies.csv (from its Euler parameters).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "solver/core/text.h"
#include "support/results_csv.h"

namespace lodestone::testing {

using Vec3 = Eigen::Vector3d;

// The rotation matrix (body axes as columns, in ground) of Euler parameters e0, e1, e2, e3 (e0 the scalar part).
inline Eigen::Matrix3d rotationOfEulerParameters(const Eigen::Vector4d& e) {
  return Eigen::Quaterniond(e(0), e(1), e(2), e(3)).normalized().toRotationMatrix();
}

// <Reference_Marker> at `position` with the given x and z axes (unit, perpendicular; y = z × x), all nine direction
// cosines written out.
inline std::string markerXml(long id, long body, const Vec3& position, const Vec3& xAxis = Vec3::UnitX(),
                             const Vec3& zAxis = Vec3::UnitZ()) {
  const Vec3 x = xAxis.normalized(), z = zAxis.normalized(), y = z.cross(x);
  std::string text = "<Reference_Marker id=\"" + std::to_string(id) + "\" body_id=\"" + std::to_string(body) + "\"";
  text += " pos_x=\"" + formatReal(position.x()) + "\" pos_y=\"" + formatReal(position.y()) + "\" pos_z=\"" +
          formatReal(position.z()) + "\"";
  const Vec3 columns[3] = {x, y, z};
  for (int column = 0; column < 3; ++column) {
    for (int row = 0; row < 3; ++row) {
      text += " a" + std::to_string(row) + std::to_string(column) + "=\"" + formatReal(columns[column](row)) + "\"";
    }
  }
  return text + "/>\n";
}

// <Body_Rigid> with its CG marker, diagonal inertia about the CG marker's axes, and initial velocities in ground.
struct BodyXml {
  long id = 2;
  long cg = 20;
  double mass = 1;
  Vec3 inertia = Vec3(1, 1, 1);
  Vec3 velocity = Vec3::Zero();
  Vec3 angularVelocity = Vec3::Zero();
};
inline std::string bodyXml(const BodyXml& b) {
  return "<Body_Rigid id=\"" + std::to_string(b.id) + "\" cg_id=\"" + std::to_string(b.cg) + "\" mass=\"" +
         formatReal(b.mass) + "\" inertia_xx=\"" + formatReal(b.inertia.x()) + "\" inertia_yy=\"" +
         formatReal(b.inertia.y()) + "\" inertia_zz=\"" + formatReal(b.inertia.z()) + "\" v_ic_x=\"" +
         formatReal(b.velocity.x()) + "\" v_ic_y=\"" + formatReal(b.velocity.y()) + "\" v_ic_z=\"" +
         formatReal(b.velocity.z()) + "\" w_ic_x=\"" + formatReal(b.angularVelocity.x()) + "\" w_ic_y=\"" +
         formatReal(b.angularVelocity.y()) + "\" w_ic_z=\"" + formatReal(b.angularVelocity.z()) + "\"/>\n";
}

inline std::string jointXml(long id, const std::string& type, long i, long j, const std::string& extra = "",
                            const std::string& element = "Constraint_Joint") {
  return "<" + element + " id=\"" + std::to_string(id) + "\" type=\"" + type + "\" i_marker_id=\"" +
         std::to_string(i) + "\" j_marker_id=\"" + std::to_string(j) + "\"" + (extra.empty() ? "" : " " + extra) +
         "/>\n";
}

// A whole deck: ground body 1, gravity, Param_Transient, the statements, one Simulate.
struct DeckXml {
  Vec3 gravity = Vec3(0, 0, -9.81);
  double integrTol = 1e-6;
  std::string transientExtra;  // more Param_Transient attributes: "h_max=\"0.01\""
  double endTime = 1;
  double printInterval = 0.01;
};
inline std::string deckXml(const DeckXml& d, const std::string& statements) {
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_x=\"" + formatReal(d.gravity.x()) + "\" grav_y=\"" + formatReal(d.gravity.y()) +
         "\" grav_z=\"" + formatReal(d.gravity.z()) + "\"/>\n"
         "<Param_Transient integr_tol=\"" + formatReal(d.integrTol) + "\" " + d.transientExtra + "/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n" + statements +
         "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(d.endTime) +
         "\" print_interval=\"" + formatReal(d.printInterval) + "\"/></Command></MultiBodySystem>\n";
}

// A body's pose at each output, from bodies.csv, for following points and axes fixed in it: a point that was at
// `initial` (ground) in the body's first output is at pointAt(row, initial) in a later one.
class BodyMotion {
 public:
  BodyMotion(const ResultsTable& table, long id) : table_(table), rows_(table.rowsOfBody(id)) {
    if (!rows_.empty()) {
      x0_ = table.vector3(rows_.front(), "x", "y", "z");
      r0_ = rotationOfEulerParameters(table.eulerParameters(rows_.front()));
    }
  }
  size_t count() const { return rows_.size(); }
  double time(size_t k) const { return table_.at(rows_[k], "time"); }
  double at(size_t k, const std::string& column) const { return table_.at(rows_[k], column); }
  Vec3 cg(size_t k) const { return table_.vector3(rows_[k], "x", "y", "z"); }
  Vec3 velocity(size_t k) const { return table_.vector3(rows_[k], "vx", "vy", "vz"); }
  Vec3 angularVelocity(size_t k) const { return table_.vector3(rows_[k], "wx", "wy", "wz"); }
  Vec3 acceleration(size_t k) const { return table_.vector3(rows_[k], "ax", "ay", "az"); }
  Eigen::Vector4d eulerParameters(size_t k) const { return table_.eulerParameters(rows_[k]); }
  Eigen::Matrix3d rotation(size_t k) const { return rotationOfEulerParameters(eulerParameters(k)); }
  // The rotation from the first output to output k.
  Eigen::Matrix3d turned(size_t k) const { return rotation(k) * r0_.transpose(); }
  Vec3 pointAt(size_t k, const Vec3& initial) const { return cg(k) + turned(k) * (initial - x0_); }
  Vec3 axisAt(size_t k, const Vec3& initial) const { return turned(k) * initial; }

 private:
  const ResultsTable& table_;
  std::vector<size_t> rows_;
  Vec3 x0_ = Vec3::Zero();
  Eigen::Matrix3d r0_ = Eigen::Matrix3d::Identity();
};

// The angle a body has turned about the fixed `axis` since its first output, at every output, continuous (past ±π).
// Meant for bodies that turn about that axis only.
inline std::vector<double> angleAbout(const BodyMotion& motion, const Vec3& axis) {
  std::vector<double> angles;
  double previous = 0, total = 0;
  for (size_t k = 0; k < motion.count(); ++k) {
    const Eigen::AngleAxisd turn(motion.turned(k));
    const double wrapped = turn.angle() * turn.axis().dot(axis.normalized());
    total += std::remainder(wrapped - previous, 2 * M_PI);
    previous = wrapped;
    angles.push_back(total);
  }
  return angles;
}

}  // namespace lodestone::testing
