// Charts drawn as SVG: the elevation profile under the history and bars for the energy ledger.

const svgNS = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(svgNS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Altitude against distance along the fixes; false (nothing drawn) without two altitudes. */
export function elevationProfile(chart, fixes) {
  const points = [];
  let along = 0;
  for (let i = 0; i < fixes.length; i++) {
    if (i > 0) along += metresBetween(fixes[i - 1], fixes[i]);
    if (fixes[i].altitude != null) points.push([along, fixes[i].altitude]);
  }
  chart.replaceChildren();
  if (points.length < 2) return false;
  const width = 320, height = 120, left = 36, bottom = 18;
  const maxX = points[points.length - 1][0] || 1;
  const altitudes = points.map((p) => p[1]);
  const low = Math.min(...altitudes), high = Math.max(...altitudes), span = high - low || 1;
  const x = (d) => left + (d / maxX) * (width - left - 4);
  const y = (a) => 4 + (1 - (a - low) / span) * (height - bottom - 8);
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const line = points.map(([d, a], i) => `${i ? "L" : "M"}${x(d).toFixed(1)},${y(a).toFixed(1)}`).join("");
  chart.append(
    svg("path", { d: `${line}L${x(maxX).toFixed(1)},${height - bottom}L${left},${height - bottom}Z`, class: "area" }),
    svg("path", { d: line, class: "line" }),
    svg("text", { x: 2, y: 12, class: "axis" }, `${Math.round(high)} m`),
    svg("text", { x: 2, y: height - bottom, class: "axis" }, `${Math.round(low)} m`),
    svg("text", { x: width - 4, y: height - 4, class: "axis", "text-anchor": "end" }, `${(maxX / 1000).toFixed(1)} km`));
  return true;
}

/** Horizontal bars, one per row (`label`, `value`, `text`). */
export function bars(chart, rows) {
  chart.replaceChildren();
  const width = 320, row = 22, label = 120;
  const height = Math.max(row, rows.length * row);
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const most = Math.max(...rows.map((r) => r.value), 0) || 1;
  rows.forEach((r, i) => {
    const y = i * row;
    const length = Math.max(1, ((width - label - 70) * r.value) / most);
    chart.append(
      svg("text", { x: 0, y: y + 15, class: "axis" }, r.label),
      svg("rect", { x: label, y: y + 4, width: length.toFixed(1), height: row - 8, class: "bar", "data-label": r.label }),
      svg("text", { x: label + length + 4, y: y + 15, class: "axis" }, r.text));
  });
  if (!rows.length) chart.append(svg("text", { x: 0, y: 15, class: "axis" }, "nothing accounted yet"));
}

/** WGS84 great-circle distance (haversine on the mean radius; the profile needs no better). */
function metresBetween(a, b) {
  const rad = Math.PI / 180, r = 6_371_008.8;
  const dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
}
