// How thin a shape is: the smallest extent across its solid, which bounds how far another shape may move into it
// within one step before the pair's deeper side flips (past the middle, contact pushes out the far side).
#pragma once

#include "shape.h"

namespace lodestone {

// The thinnest extent across the solid: a sphere's diameter, a box's smallest edge, the smaller of a cylinder's
// diameter and length, an ellipsoid's smallest diameter, a frustum's length or its diameter at mid-height (a cone's
// tip has no inside to cross, so it is not counted), and for a mesh the smallest thickness measured inward from
// the surface (see meshThickness).
double thinnestExtent(const Shape& shape);

// The thinnest part of a closed mesh: from the centre of each triangle, the distance along the inward normal to the
// surface on the far side (found by sphere tracing with the mesh's signed distance, which never steps past a
// surface), the smallest of all, and at most the mesh's smallest box edge. A plate gives its thickness, a staircase
// made as one mesh the thickness of its thinnest step, a gear its teeth's. About 20 nearest-point queries per
// triangle: computed once per mesh.
double meshThickness(const class MeshGeometry& mesh);

}  // namespace lodestone
