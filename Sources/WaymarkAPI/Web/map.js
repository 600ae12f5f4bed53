// The map: Leaflet (Debian's libjs-leaflet, served by the daemon under /web/leaflet/) on a plain
// background with a scale bar, as the export pictures are drawn; a basemap only when the daemon
// is configured with one (`GET /v1/web`: a tile URL template, or its own MBTiles file).

/* global L */
import * as api from "./api.js";
import { escapeHTML } from "./format.js";

export const colours = {
  inside: "#2e7d32",
  outside: "#1d6fb8",
  unknown: "#8a8f98",
  track: "#c2410c",
  device: "#7c3aed",
};

export function createMap(element, basemap) {
  const map = L.map(element, { zoomControl: true, attributionControl: Boolean(basemap) });
  L.control.scale({ metric: true, imperial: false }).addTo(map);
  if (basemap?.tiles) {
    // Past the basemap's deepest zoom (6 for the installed world map) its tiles are drawn larger,
    // so the map still zooms in to a street.
    const options = { maxNativeZoom: basemap.maxZoom ?? 19, maxZoom: 19, attribution: escapeHTML(basemap.attribution ?? "") };
    // The credit is the configuration's or an MBTiles file's text, shown as text (Leaflet's
    // attribution control takes only HTML). The daemon's own tiles (an MBTiles basemap) go through the API with the token; others are
    // fetched by the browser as any map does.
    const layer = basemap.tiles.startsWith("/v1/") ? new DaemonTiles({ ...options, template: basemap.tiles }) : L.tileLayer(basemap.tiles, options);
    layer.addTo(map);
  }
  map.setView([20, 0], 2);
  return map;
}

/** The style of a region drawn in the state the selected device is in. */
export function regionStyle(state) {
  const colour = colours[state] ?? colours.unknown;
  return { color: colour, weight: 2, fillColor: colour, fillOpacity: state === "inside" ? 0.35 : 0.08 };
}

/** Fits the map to `bounds` if they are valid, keeping a margin (after the layout settled). */
export function fit(map, bounds) {
  if (!bounds || !bounds.isValid()) return;
  map.invalidateSize();
  map.fitBounds(bounds, { padding: [24, 24], maxZoom: 17 });
}

/** Tiles from `GET /v1/tiles/{z}/{x}/{y}`, fetched with the token (an <img> cannot send one). */
const DaemonTiles = L.GridLayer.extend({
  createTile(coords, done) {
    const tile = document.createElement("img");
    tile.alt = "";
    api.download(L.Util.template(this.options.template, coords))
      .then((blob) => {
        if (blob.size) {
          tile.onload = () => URL.revokeObjectURL(tile.src);
          tile.src = URL.createObjectURL(blob);
        }
        done(null, tile);
      })
      .catch((error) => done(error, tile));
    return tile;
  },
});
