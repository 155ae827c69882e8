// The module liblodestone_fcl: everything Lodestone asks of FCL (fcl_routines.h), with FCL linked into it alone.
#include <fcl/fcl.h>

#include "fcl_routines.h"
#include "solver/core/modules.h"

namespace lodestone {

namespace {

std::vector<MeshTreeNode> boundingBoxTree(const TriangleMesh& mesh) {
  std::vector<fcl::Vector3d> points(mesh.vertices.begin(), mesh.vertices.end());
  std::vector<fcl::Triangle> triangles;
  triangles.reserve(mesh.triangles.size());
  for (const auto& corners : mesh.triangles) {
    triangles.emplace_back(static_cast<size_t>(corners[0]), static_cast<size_t>(corners[1]),
                           static_cast<size_t>(corners[2]));
  }
  fcl::BVHModel<fcl::AABBd> model;
  model.beginModel(static_cast<int>(triangles.size()), static_cast<int>(points.size()));
  model.addSubModel(points, triangles);
  model.endModel();
  std::vector<MeshTreeNode> nodes;
  nodes.reserve(static_cast<size_t>(model.getNumBVs()));
  for (int k = 0; k < model.getNumBVs(); ++k) {
    const fcl::BVNode<fcl::AABBd>& node = model.getBV(k);
    nodes.push_back({0.5 * (node.bv.min_ + node.bv.max_), 0.5 * (node.bv.max_ - node.bv.min_),
                     node.isLeaf() ? -1 - node.primitiveId() : node.leftChild()});
  }
  return nodes;
}

const FclRoutines kRoutines{&detail::fclConvexPair, &boundingBoxTree};

}  // namespace

}  // namespace lodestone

LODESTONE_MODULE_ENTRY const lodestone::FclRoutines* lodestone_fcl_routines() { return &lodestone::kRoutines; }
