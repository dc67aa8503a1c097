// Prints SimGrid's route between every ordered pair of hosts of a platform, hosts in name order:
// one line per pair, "src dst link,link,..." (link names as SimGrid names them; _UP/_DOWN for the
// halves of SPLITDUPLEX links); with a second argument S, only every S-th host in name order.
// Build: g++ -std=c++17 -o zone-routes zone-routes.cpp -lsimgrid.
#include <simgrid/s4u.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  simgrid::s4u::Engine e(&argc, argv);
  e.load_platform(argv[1]);
  e.seal_platform(); // Floyd and Dijkstra zones compute their tables when sealed
  std::vector<simgrid::s4u::Host*> h = e.get_all_hosts();
  std::sort(h.begin(), h.end(), [](auto* a, auto* b) { return a->get_name() < b->get_name(); });
  size_t stride = argc > 2 ? std::stoul(argv[2]) : 1;
  std::vector<simgrid::s4u::Host*> picked;
  for (size_t i = 0; i < h.size(); i += stride) picked.push_back(h[i]);
  h = picked;
  for (auto* a : h)
    for (auto* b : h) {
      if (a == b) continue;
      std::vector<simgrid::s4u::Link*> links;
      double lat = 0;
      a->route_to(b, links, &lat);
      std::printf("%s %s", a->get_cname(), b->get_cname());
      char sep = ' ';
      for (auto* l : links) { std::printf("%c%s", sep, l->get_cname()); sep = ','; }
      std::printf("\n");
    }
  return 0;
}
