// The bodies and joints of a model as a graph, split where a single body or ground holds the pieces together.
//
// A joint's equations depend only on where its two bodies are relative to each other, so moving every body of a
// group together changes none of them. Split the graph (bodies and ground as nodes, joints as edges) into its
// biconnected components — the blocks, which meet only at single nodes. Ordered from ground outwards, each block
// adds the bodies it does not share with the blocks before it, and by that invariance its equations have the same
// rank on those bodies alone as on all of its bodies. So the velocity Jacobian is block-triangular, and an
// equation repeats others exactly when it repeats others of its own block. A chain of N links is N blocks of one
// joint each; a four-bar is one block. Deciding redundancy block by block keeps it linear in the model's size
// where one QR of the whole Jacobian is not (a 1000-link chain: 14 s for Eigen's SparseQR).
#pragma once

#include <utility>
#include <vector>

namespace lodestone {

// `edges[k]` joins nodes (a, b), 0 <= a, b < nodeCount; parallel edges and self-loops are allowed. Returns the
// block of each edge, numbered from 0. A self-loop is a block of its own.
std::vector<int> biconnectedBlocks(int nodeCount, const std::vector<std::pair<int, int>>& edges);

}  // namespace lodestone
