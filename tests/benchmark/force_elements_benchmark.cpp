// A chain of N bodies, each joined to the next by a Force_Bushing, a Force_SpringDamper and a
// Force_Scalar_TwoBody whose expression reads a Reference_Variable of a third body's velocity (5N elements, N
// variables): what one residual and one Jacobian cost per element as N grows. The Jacobian differences each
// element over the bodies it reads only, so both should stay flat per element. Prints figures; asserts nothing.
//
//   force_elements_benchmark [N ...]     (default: N = 10 100 1000)
//
// Measured on the 2-core development VM (Release, best of 3 while another build ran): per element, residual
// 0.28 / 0.27 / 0.48 us and Jacobian 9.8 / 12.6 / 15.5 us at N = 10 / 100 / 1000 (27, 297, 2997 elements; about 35
// evaluations of an element per Jacobian). Linear in the elements but for the slow growth of the coupling blocks'
// lookup (a std::map keyed by body pair, as for contacts) and of cache misses.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "deck_model.h"
#include "solver/driver/multibody_system.h"

using namespace lodestone;

namespace {

std::string chainDeck(int count) {
  std::string deck = "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n";
  for (int i = 0; i < count; ++i) {
    const std::string id = std::to_string(i + 2), marker = std::to_string(10 * (i + 2));
    deck += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + id + "\" pos_x=\"" + std::to_string(i) + "\"/>\n";
    deck += "<Body_Rigid id=\"" + id + "\" cg_id=\"" + marker + "\" mass=\"1\" inertia_xx=\"0.1\" inertia_yy=\"0.1\" "
            "inertia_zz=\"0.1\" v_ic_y=\"" + std::to_string(0.01 * i) + "\" w_ic_z=\"0.5\"/>\n";
    deck += "<Reference_Variable id=\"" + id + "\" expr=\"VY(" + marker + ")\"/>\n";
  }
  for (int i = 0; i + 1 < count; ++i) {
    const std::string a = std::to_string(10 * (i + 2)), b = std::to_string(10 * (i + 3));
    const std::string third = std::to_string((i + 2) % count + 2), id = std::to_string(i + 1);
    deck += "<Force_Bushing id=\"" + id + "\" i_marker_id=\"" + b + "\" j_marker_id=\"" + a +
            "\" kx=\"100\" ky=\"100\" kz=\"100\" ktx=\"10\" kty=\"10\" ktz=\"10\" cx=\"1\" ctz=\"0.1\"/>\n";
    deck += "<Force_SpringDamper id=\"" + id + "\" type=\"TRANSLATIONAL\" i_marker_id=\"" + b + "\" j_marker_id=\"" +
            a + "\" stiffness=\"50\" damping=\"1\" length=\"1\"/>\n";
    deck += "<Force_Scalar_TwoBody id=\"" + id + "\" type=\"FORCE\" i_marker_id=\"" + b + "\" j_marker_id=\"" + a +
            "\" val_expression=\"-0.1*VARVAL(" + third + ")\"/>\n";
  }
  deck += "</Model><Command><Simulate end_time=\"1\" print_interval=\"0.1\"/></Command></MultiBodySystem>\n";
  return deck;
}

template <class Work>
double microsecondsPerCall(int calls, Work work) {
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < calls; ++k) work();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> counts;
  for (int k = 1; k < argc; ++k) counts.push_back(std::atoi(argv[k]));
  if (counts.empty()) counts = {10, 100, 1000};
  std::printf("%8s %9s %16s %16s %18s %18s\n", "bodies", "elements", "residual (us)", "Jacobian (us)",
              "residual/element", "Jacobian/element");
  for (const int count : counts) {
    const Model model = benchmark::modelOfDeck(chainDeck(count), "chain.xml");
    PhaseTimes times;
    MultibodySystem system(model, times);
    std::vector<double> y(static_cast<size_t>(system.layout().size())), yp(y.size(), 0.0), r(y.size());
    system.initialState(y);
    const int elements = 3 * (count - 1);
    const int calls = std::max(3, 20000 / count);
    const double residual = microsecondsPerCall(calls, [&] { system.residual(0.1, y.data(), yp.data(), r.data()); });
    const double jacobian = microsecondsPerCall(calls, [&] { system.prepareJacobian(0.1, y.data(), yp.data()); });
    std::printf("%8d %9d %16.1f %16.1f %18.3f %18.3f\n", count, elements, residual, jacobian, residual / elements,
                jacobian / elements);
  }
  return 0;
}
