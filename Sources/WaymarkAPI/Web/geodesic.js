// Geodesic shapes for the map: a circle region as the polygon of points at its radius on the
// WGS 84 ellipsoid, so it is drawn at its true size at any latitude. (Issue 42: to be written.)
