// The map's legend: what the region state colours mean, as a Leaflet control in the map's
// bottom-left corner, each state's swatch drawn with the style its regions are drawn with.

/* global L */
import { regionStyle } from "./map.js";
import { element } from "./format.js";

/** Each region state in words, beside its colour. */
export const stateLabels = {
  inside: "Inside (selected device)",
  outside: "Outside",
  unknown: "State unknown",
};

/** An SVG element with attributes (format.js's `element` makes HTML ones). */
function svgElement(tag, attributes, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** A small square in a region's stroke and fill, as Leaflet draws the region's path. */
function swatch(state) {
  const style = regionStyle(state);
  return svgElement("svg", { class: "legend-swatch", width: 16, height: 16, viewBox: "0 0 16 16", "aria-hidden": "true" },
    svgElement("rect", {
      x: 1, y: 1, width: 14, height: 14, rx: 2,
      fill: style.fillColor, "fill-opacity": style.fillOpacity, stroke: style.color, "stroke-width": style.weight,
    }));
}

/** Adds the legend (`#map-legend`: a `li[data-state]` per state) to `map`; returns the control. */
export function addLegend(map) {
  const Legend = L.Control.extend({
    options: { position: "bottomleft" },
    onAdd() {
      const items = Object.entries(stateLabels).map(([state, label]) =>
        element("li", { "data-state": state }, swatch(state), element("span", { text: label })));
      const container = element("div", { id: "map-legend", class: "map-legend", role: "group", "aria-label": "Legend" },
        element("strong", { text: "Regions" }), element("ul", {}, ...items));
      L.DomEvent.disableClickPropagation(container);
      return container;
    },
  });
  return new Legend().addTo(map);
}
