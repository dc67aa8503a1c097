// Prints SimGrid's route between every ordered pair of hosts node-0..node-(n-1): one line per pair,
// "src dst link,link,...".
#include <simgrid/s4u.hpp>
#include <cstdio>
#include <string>
#include <vector>
int main(int argc, char** argv) {
  simgrid::s4u::Engine e(&argc, argv);
  e.load_platform(argv[1]);
  int n = std::stoi(argv[2]);
  std::vector<simgrid::s4u::Host*> h;
  for (int i = 0; i < n; i++) h.push_back(simgrid::s4u::Host::by_name("node-" + std::to_string(i)));
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      if (a == b) continue;
      std::vector<simgrid::s4u::Link*> links;
      double lat = 0;
      h[a]->route_to(h[b], links, &lat);
      std::printf("%d %d", a, b);
      char sep = ' ';
      for (auto* l : links) { std::printf("%c%s", sep, l->get_cname()); sep = ','; }
      std::printf("\n");
    }
  return 0;
}
