#include "impact_recorder.h"

#include <algorithm>

namespace lodestone {

namespace {

// Ground stands still at the origin.
const BodyKinematics kGround{};

const BodyKinematics& movingOrGround(int body, std::span<const BodyKinematics> bodies) {
  return body < 0 ? kGround : bodies[static_cast<size_t>(body)];
}

// How fast I's material point at `point` moves away from J's along `normal` (from J to I): > 0 receding.
double recedingSpeed(const BodyKinematics& bodyI, const BodyKinematics& bodyJ, const Vector3& point,
                     const Vector3& normal) {
  return (bodyI.velocityAt(point) - bodyJ.velocityAt(point)).dot(normal);
}

}  // namespace

void ImpactRecorder::observe(double time, std::span<const ContactEvent> events, std::span<const PairReport> touching,
                             std::span<const BodyKinematics> bodies, std::vector<ImpactEpisode>& ended) {
  for (const ContactEvent& event : events) {
    if (event.onset) {
      const auto report = std::find_if(touching.begin(), touching.end(), [&](const PairReport& pair) {
        return pair.elementId == event.element->id && pair.iGraphic == event.iGraphic && pair.jGraphic == event.jGraphic;
      });
      open(event, report == touching.end() ? nullptr : &*report, bodies);
    } else {
      close(event, bodies, ended);
    }
  }
  for (const PairReport& pair : touching) sample(time, pair, bodies);
}

void ImpactRecorder::open(const ContactEvent& event, const PairReport* report, std::span<const BodyKinematics> bodies) {
  OpenEpisode& opened = open_[PairKey{event.element->id, event.iGraphic, event.jGraphic}];
  opened = OpenEpisode{};
  ImpactEpisode& episode = opened.episode;
  episode.elementId = event.element->id;
  episode.iGraphic = event.iGraphic;
  episode.jGraphic = event.jGraphic;
  episode.onsetTime = event.time;
  episode.onsetLocated = event.located;
  episode.peakTime = event.time;
  opened.lastTime = event.time;
  if (report) {
    opened.bodyI = report->bodyI;
    opened.bodyJ = report->bodyJ;
    opened.onsetI = movingOrGround(report->bodyI, bodies);
    opened.onsetJ = movingOrGround(report->bodyJ, bodies);
  }
}

void ImpactRecorder::sample(double time, const PairReport& report, std::span<const BodyKinematics> bodies) {
  const PairKey key{report.elementId, report.iGraphic, report.jGraphic};
  auto found = open_.find(key);
  if (found == open_.end()) {
    // In contact without an onset seen (a model replaced by a command keeps its contacts): the episode starts here.
    const ContactEvent start{time, report.element, report.iGraphic, report.jGraphic, true, false};
    open(start, &report, bodies);
    found = open_.find(key);
  }
  OpenEpisode& opened = found->second;
  ImpactEpisode& episode = opened.episode;
  const double force = report.normalForce;
  // The impulse by the trapezoidal rule over the accepted states (IDAS's steps follow the force closely).
  episode.normalImpulse += 0.5 * (opened.lastForce + force) * (time - opened.lastTime);
  opened.lastTime = time;
  opened.lastForce = force;
  if (force > episode.peakNormalForce) {
    episode.peakNormalForce = force;
    episode.peakTime = time;
  }
  episode.maxPenetration = std::max(episode.maxPenetration, report.penetration);
  if (report.points > 0) {
    opened.hasGeometry = true;
    opened.point = report.point;
    opened.normal = report.normal;
    if (opened.velocityInPending) {
      opened.velocityInPending = false;
      episode.velocityIn = -recedingSpeed(opened.onsetI, opened.onsetJ, opened.point, opened.normal);
    }
  }
  Extrema& extrema = interval_[key];
  extrema.normalForce = std::max(extrema.normalForce, force);
  extrema.penetration = std::max(extrema.penetration, report.penetration);
}

void ImpactRecorder::close(const ContactEvent& event, std::span<const BodyKinematics> bodies,
                           std::vector<ImpactEpisode>& ended) {
  const auto found = open_.find(PairKey{event.element->id, event.iGraphic, event.jGraphic});
  if (found == open_.end()) return;
  OpenEpisode& opened = found->second;
  ImpactEpisode& episode = opened.episode;
  // The force falls to nothing at the separation.
  episode.normalImpulse += 0.5 * opened.lastForce * (event.time - opened.lastTime);
  episode.separationTime = event.time;
  episode.separationLocated = event.located;
  if (opened.hasGeometry) {
    episode.velocityOut = recedingSpeed(movingOrGround(opened.bodyI, bodies), movingOrGround(opened.bodyJ, bodies),
                                        opened.point, opened.normal);
  }
  ended.push_back(episode);
  open_.erase(found);
}

void ImpactRecorder::closeInterval(std::span<PairReport> rows) {
  for (PairReport& row : rows) {
    const auto found = interval_.find(PairKey{row.elementId, row.iGraphic, row.jGraphic});
    if (found == interval_.end()) continue;
    row.intervalMaxNormalForce = std::max(row.intervalMaxNormalForce, found->second.normalForce);
    row.intervalMaxPenetration = std::max(row.intervalMaxPenetration, found->second.penetration);
  }
  interval_.clear();
}

std::vector<ImpactEpisode> ImpactRecorder::takeOpenEpisodes() {
  std::vector<ImpactEpisode> episodes;
  for (const auto& [key, opened] : open_) episodes.push_back(opened.episode);
  open_.clear();
  return episodes;
}

}  // namespace lodestone
