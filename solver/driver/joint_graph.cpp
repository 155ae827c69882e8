// Hopcroft and Tarjan's biconnected components, iterative (a chain of 100 000 links must not overflow the stack).
#include "joint_graph.h"

#include <algorithm>

namespace lodestone {

std::vector<int> biconnectedBlocks(int nodeCount, const std::vector<std::pair<int, int>>& edges) {
  const int edgeCount = static_cast<int>(edges.size());
  std::vector<int> block(static_cast<size_t>(edgeCount), -1);
  int blocks = 0;
  // Neighbours: (node, edge) pairs.
  std::vector<std::vector<std::pair<int, int>>> adjacent(static_cast<size_t>(nodeCount));
  for (int e = 0; e < edgeCount; ++e) {
    const auto [a, b] = edges[static_cast<size_t>(e)];
    if (a == b) {
      block[static_cast<size_t>(e)] = blocks++;
      continue;
    }
    adjacent[static_cast<size_t>(a)].emplace_back(b, e);
    adjacent[static_cast<size_t>(b)].emplace_back(a, e);
  }

  // discovered: order of discovery (-1: not yet); low: the earliest node reachable from the node's subtree by one
  // edge that is not the tree edge into it.
  std::vector<int> discovered(static_cast<size_t>(nodeCount), -1), low(static_cast<size_t>(nodeCount), 0);
  struct Frame {
    int node, treeEdge;
    size_t next = 0;
  };
  std::vector<Frame> path;
  std::vector<int> edgeStack;
  int clock = 0;
  for (int root = 0; root < nodeCount; ++root) {
    if (discovered[static_cast<size_t>(root)] >= 0) continue;
    discovered[static_cast<size_t>(root)] = low[static_cast<size_t>(root)] = clock++;
    path.push_back({root, -1});
    while (!path.empty()) {
      Frame& frame = path.back();
      const int v = frame.node;
      if (frame.next < adjacent[static_cast<size_t>(v)].size()) {
        const auto [w, e] = adjacent[static_cast<size_t>(v)][frame.next++];
        if (e == frame.treeEdge) continue;
        if (discovered[static_cast<size_t>(w)] < 0) {
          edgeStack.push_back(e);
          discovered[static_cast<size_t>(w)] = low[static_cast<size_t>(w)] = clock++;
          path.push_back({w, e});  // invalidates `frame`
        } else if (discovered[static_cast<size_t>(w)] < discovered[static_cast<size_t>(v)]) {
          edgeStack.push_back(e);  // back edge, pushed once, from its lower end
          low[static_cast<size_t>(v)] = std::min(low[static_cast<size_t>(v)], discovered[static_cast<size_t>(w)]);
        }
        continue;
      }
      const int treeEdge = frame.treeEdge;
      path.pop_back();
      if (path.empty()) break;
      const int parent = path.back().node;
      low[static_cast<size_t>(parent)] = std::min(low[static_cast<size_t>(parent)], low[static_cast<size_t>(v)]);
      if (low[static_cast<size_t>(v)] >= discovered[static_cast<size_t>(parent)]) {
        // `parent` separates v's subtree: the edges above the tree edge into v form one block.
        int e = -1;
        do {
          e = edgeStack.back();
          edgeStack.pop_back();
          block[static_cast<size_t>(e)] = blocks;
        } while (e != treeEdge);
        ++blocks;
      }
    }
  }
  return block;
}

}  // namespace lodestone
