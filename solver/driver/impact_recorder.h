// Follows every contact from its onset to its separation through the accepted steps, so that what happens between
// two outputs is not lost: each episode becomes one row of impacts.csv (peak normal force, deepest penetration,
// normal impulse, normal velocity in and out), and each contacts.csv row gets the largest normal force and
// penetration its pair reached since the previous output.
#pragma once

#include <map>
#include <span>
#include <tuple>
#include <vector>

#include "elements/contact_evaluator.h"
#include "solver/output/impact_results_writer.h"

namespace lodestone {

class ImpactRecorder {
 public:
  // At an accepted state (a step, a located root, the start): the contact events found there and the pairs in
  // contact there (MultibodySystem::touchingContacts), with the bodies' kinematics. The episodes that ended there
  // are appended to `ended`.
  void observe(double time, std::span<const ContactEvent> events, std::span<const PairReport> touching,
               std::span<const BodyKinematics> bodies, std::vector<ImpactEpisode>& ended);

  // At an output: each row's pair takes the largest normal force and penetration of the accepted states since the
  // previous output (the row's own values count too), and a new interval begins.
  void closeInterval(std::span<PairReport> rows);

  // At the end of the run: the episodes still open, in pair order; the recorder is left empty.
  std::vector<ImpactEpisode> takeOpenEpisodes();

 private:
  using PairKey = std::tuple<long, long, long>;  // Force_Contact id, I graphic id, J graphic id
  struct OpenEpisode {
    ImpactEpisode episode;
    int bodyI = -1, bodyJ = -1;  // −1: ground
    double lastTime = 0, lastForce = 0;
    // Where the pair last touched (point, normal from J to I), once it has had a contact point.
    bool hasGeometry = false;
    Vector3 point = Vector3::Zero(), normal = Vector3::UnitZ();
    // The bodies at the onset, until the first contact point says where and along what the approach is measured.
    bool velocityInPending = true;
    BodyKinematics onsetI, onsetJ;
  };
  struct Extrema {
    double normalForce = 0, penetration = 0;
  };

  void open(const ContactEvent& event, const PairReport* report, std::span<const BodyKinematics> bodies);
  void close(const ContactEvent& event, std::span<const BodyKinematics> bodies, std::vector<ImpactEpisode>& ended);
  void sample(double time, const PairReport& report, std::span<const BodyKinematics> bodies);

  std::map<PairKey, OpenEpisode> open_;
  std::map<PairKey, Extrema> interval_;
};

}  // namespace lodestone
